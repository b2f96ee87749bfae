/**
 * User sessions for the `Session` scheme (`X-Session-Token` header) and the `Cookie` scheme (the
 * `__Host-session` cookie, set HttpOnly, Secure, SameSite=Lax, Path=/ by whatever logs the user in).
 * Tokens are 256 random bits, opaque (not JWTs), so a session token is never taken for an access token
 * nor the other way round. SSO login will create sessions through `startSession`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { putSession } from '../data/sessions';

export const SESSION_COOKIE = '__Host-session';
export const SESSION_HEADER = 'x-session-token';
/** Absolute lifetime of a session. */
export const SESSION_LIFETIME_SECONDS = 8 * 60 * 60;

const SESSION_TOKEN = /^sess_[A-Za-z0-9_-]{43}$/;

export const hashSessionToken = (token: string): string =>
  createHash('sha256').update(token).digest('base64url');

export const isSessionToken = (token: string): boolean => SESSION_TOKEN.test(token);

export const startSession = async (
  principalId: string,
  now = Date.now(),
): Promise<{ token: string; expiresAt: Date }> => {
  const token = `sess_${randomBytes(32).toString('base64url')}`;
  const expiresAt = Math.floor(now / 1000) + SESSION_LIFETIME_SECONDS;
  await putSession(hashSessionToken(token), {
    principal_id: principalId,
    created_at: new Date(now).toISOString(),
    expires_at: expiresAt,
  });
  return { token, expiresAt: new Date(expiresAt * 1000) };
};

/** The session cookie's value from API Gateway's `cookies` list, if present. */
export const sessionCookie = (cookies: readonly string[] | undefined): string | undefined =>
  cookies
    ?.map((c) => c.split('='))
    .find(([name]) => name?.trim() === SESSION_COOKIE)?.[1]
    ?.trim();
