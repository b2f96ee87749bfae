import { authorise } from '#shared/auth/principal';
import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { UnauthorisedError } from '#shared/jsonapi/errors';
import { parseDocument } from '#shared/jsonapi/request-document';
import { ssoProviders } from './definitions';
import { createSsoProvider, createSsoProviderDocument } from './sso-providers';

export { createSsoProviderDocument as requestBody } from './sso-providers';

/** POST /v3/sso-providers: the organisation comes from the body's `organisation` relationship. */
export const handler = jsonApiHandler('createSsoProvider', async (request) => {
  if (!request.principal) throw new UnauthorisedError();
  const document = parseDocument(createSsoProviderDocument, request.body);
  const scope = authorise(
    request.principal,
    'sso-providers:manage',
    document.data.relationships.organisation.data.id,
  );
  const provider = await createSsoProvider(scope, document);
  return created(await resourceResponse({ ...request, scope }, ssoProviders, provider));
});
