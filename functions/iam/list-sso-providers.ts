import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listResources } from '#shared/resources/collection';
import { ssoProviders } from '#shared/resources/iam/definitions';

/** GET /v3/sso-providers: providers of every organisation the caller may administer. */
export const handler = jsonApiHandler('listSsoProviders', (request) => listResources(request, ssoProviders));
