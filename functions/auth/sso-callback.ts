import { jsonApiHandler } from '#shared/http/json-api-handler';
import { signedInReply } from './signed-in-reply';
import { finishSsoLogin } from './sso-login';

/**
 * GET /v3/sso/callback: the provider's answer is checked, the user found, linked or made, and a session
 * started: the `__Host-session` cookie, and its token in `meta.session` for `X-Session-Token` clients.
 */
export const handler = jsonApiHandler('finishSsoLogin', async (request) => {
  const query = new URLSearchParams(request.query as Record<string, string>).toString();
  return signedInReply(request, await finishSsoLogin(`${request.baseUrl}${request.path}?${query}`), {});
});
