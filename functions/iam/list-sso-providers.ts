import { listResources } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { ssoProviders } from './definitions';

/** GET /v3/sso-providers: providers of every organisation the caller may administer. */
export const handler = jsonApiHandler('listSsoProviders', (request) => listResources(request, ssoProviders));
