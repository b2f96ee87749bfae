import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { finishSsoLogin } from '#shared/resources/auth/sso-login';
import { users } from '#shared/resources/people/users';
import { resourceResponse } from '#shared/resources/single';

/**
 * GET /v3/sso/callback: the provider's answer is checked, the user found, linked or made, and a session
 * started: the `__Host-session` cookie, and its token in `meta.session` for `X-Session-Token` clients.
 */
export const handler = jsonApiHandler('finishSsoLogin', async (request) => {
  const query = new URLSearchParams(request.query as Record<string, string>).toString();
  const { user, scope, session } = await finishSsoLogin(`${request.baseUrl}${request.path}?${query}`);
  const document = await resourceResponse({ ...request, scope }, users, user, {});
  return new Reply(
    200,
    { ...document, meta: { session: { token: session.token, expires_at: session.expiresAt.toISOString() } } },
    {},
    undefined,
    [session.cookie],
  );
});
