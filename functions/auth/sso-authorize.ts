import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import type { OwnQueryParameters } from '#shared/jsonapi/own-query-parameters';
import { beginSsoLogin } from './sso-login';

export const queryParameters = {
  invitation: { description: 'An invitation token from its e-mail: signing in accepts that invitation.' },
  return_to: {
    description:
      "Where the callback sends the browser once signed in (303, the session in the `__Host-session` cookie): an address the provider's `return_to_allow_list` allows, else 400.",
  },
} satisfies OwnQueryParameters;

/**
 * GET /v3/sso/{oidc_identifier}/authorize: 303 to the organisation's identity provider, with a fresh
 * state, nonce and PKCE challenge; `?invitation=<token>` accepts that invitation by signing in;
 * `?return_to=<url>` (on the provider's allow-list, else 400) is where the callback sends the browser.
 */
export const handler = jsonApiHandler('beginSsoLogin', async (request) => {
  const location = await beginSsoLogin(request.params.oidc_identifier, {
    invitation: request.query.invitation,
    returnTo: request.query.return_to,
  });
  return new Reply(303, undefined, { Location: location });
});
