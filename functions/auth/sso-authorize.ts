import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import type { OwnQueryParameters } from '#shared/jsonapi/own-query-parameters';
import { beginSsoLogin } from './sso-login';

export const queryParameters = {
  invitation: { description: 'An invitation token from its e-mail: signing in accepts that invitation.' },
} satisfies OwnQueryParameters;

/**
 * GET /v3/sso/{oidc_identifier}/authorize: 303 to the organisation's identity provider, with a fresh
 * state, nonce and PKCE challenge; `?invitation=<token>` accepts that invitation by signing in.
 */
export const handler = jsonApiHandler('beginSsoLogin', async (request) => {
  const location = await beginSsoLogin(request.params.oidc_identifier, request.query.invitation);
  return new Reply(303, undefined, { Location: location });
});
