/**
 * User sessions for the `Session` scheme (`X-Session-Token` header) and the `Cookie` scheme (the
 * `__Host-session` cookie, set HttpOnly, Secure, SameSite=Lax, Path=/ by whatever logs the user in).
 * Tokens are `sess_<user id>.<256 random bits>`, not JWTs, so a session token is never taken for an
 * access token nor the other way round. The user id is no secret (the user reads it from whoami); it
 * lets authentication read the session and the user's principal in one round trip, and a session only
 * counts for the user it was started for. SSO login will create sessions through `startSession`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { deleteSession, putSession } from '../data/sessions';

export const SESSION_COOKIE = '__Host-session';
export const SESSION_HEADER = 'x-session-token';
/** Absolute lifetime of a session. */
export const SESSION_LIFETIME_SECONDS = 8 * 60 * 60;

const SESSION_TOKEN = /^sess_([A-Za-z0-9-]{1,64})\.[A-Za-z0-9_-]{43}$/;

export const hashSessionToken = (token: string): string =>
  createHash('sha256').update(token).digest('base64url');

/** The user a well-formed session token names, or null. */
export const sessionPrincipal = (token: string): string | null => SESSION_TOKEN.exec(token)?.[1] ?? null;

export const startSession = async (
  principalId: string,
  now = Date.now(),
  lifetimeSeconds = SESSION_LIFETIME_SECONDS,
): Promise<{ token: string; expiresAt: Date }> => {
  const token = `sess_${principalId}.${randomBytes(32).toString('base64url')}`;
  const expiresAt = Math.floor(now / 1000) + lifetimeSeconds;
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

/**
 * The `Set-Cookie` value that hands a browser its session: `__Host-` (so only this host, path `/`, over
 * HTTPS), unreadable by scripts, and not sent on cross-site requests other than top-level navigation.
 */
export const sessionSetCookie = (token: string, expiresAt: Date, now = Date.now()): string =>
  `${SESSION_COOKIE}=${token}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=${Math.max(0, Math.ceil((expiresAt.getTime() - now) / 1000))}`;

/** The `Set-Cookie` value that makes a browser forget its session. */
export const clearedSessionCookie = (): string =>
  `${SESSION_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`;

/** Ends the session a request presented (its header or its cookie). */
export const endSession = async (
  headers: Readonly<Record<string, string | undefined>>,
  cookies: readonly string[] | undefined,
): Promise<void> => {
  const token = headers[SESSION_HEADER] ?? sessionCookie(cookies);
  if (token) await deleteSession(hashSessionToken(token));
};
