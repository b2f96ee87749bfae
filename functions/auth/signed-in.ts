/**
 * How every way in ends (an accepted invitation, an SSO sign-in): a session for the user, lasting the
 * organisation's session lifetime, handed over as a token and as the `__Host-session` cookie, and the
 * scope the user reads their own record in.
 */
import { sessionSetCookie, startSession } from '#shared/auth/sessions';
import type { Settings } from '#shared/data/organisation-settings';
import { type Scope, scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';

export interface SignedIn {
  user: StoredResource;
  /** Where the user reads: their organisation, as themselves. */
  scope: Scope;
  session: { token: string; expiresAt: Date; cookie: string };
}

export const signIn = async (
  user: StoredResource,
  settings: Pick<Settings, 'session_lifetime_minutes'>,
  now: Date,
): Promise<SignedIn> => {
  const session = await startSession(user.id, now.getTime(), settings.session_lifetime_minutes * 60);
  return {
    user,
    scope: scopeOf([user.org_id], undefined, { kind: 'user', id: user.id }),
    session: { ...session, cookie: sessionSetCookie(session.token, session.expiresAt, now.getTime()) },
  };
};
