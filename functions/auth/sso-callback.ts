import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { asksForJsonApi } from '#shared/jsonapi/media-type';
import { signedInReply } from './signed-in-reply';
import { finishSsoLogin } from './sso-login';

/**
 * GET /v3/sso/callback: the provider's answer is checked, the user found, linked or made, and a session
 * started. A sign-in that began with a `return_to` sends the browser there (303) with the session in the
 * `__Host-session` cookie only: no token ever rides in a URL. Otherwise, or when the client asks for
 * JSON:API (`Accept: application/vnd.api+json`), the answer is the user, with the cookie and the token in
 * `meta.session` for `X-Session-Token` clients.
 */
export const handler = jsonApiHandler('finishSsoLogin', async (request) => {
  const query = new URLSearchParams(request.query as Record<string, string>).toString();
  const signedIn = await finishSsoLogin(`${request.baseUrl}${request.path}?${query}`);
  if (signedIn.returnTo !== undefined && !asksForJsonApi(request.headers.accept))
    return new Reply(303, undefined, { Location: signedIn.returnTo }, undefined, [signedIn.session.cookie]);
  return signedInReply(request, signedIn, {});
});
