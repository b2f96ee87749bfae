import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { parseDocument } from '#shared/jsonapi/request-document';
import { ssoProviders } from './definitions';
import { updateSsoProvider, updateSsoProviderDocument } from './sso-providers';

export { updateSsoProviderDocument as requestBody } from './sso-providers';

/** PATCH /v3/sso-providers/{sso_provider_id}: any attribute, a new `client_secret` (or null), the default role. */
export const handler = jsonApiHandler('updateSsoProvider', async (request) => {
  const document = parseDocument(updateSsoProviderDocument, request.body);
  const provider = await readInScope(request.scope, ssoProviders, request.params.sso_provider_id);
  return resourceResponse(request, ssoProviders, await updateSsoProvider(request.scope, provider, document));
});
