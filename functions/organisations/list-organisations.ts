import { listInMemory } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { organisations, organisationsInScope } from './definitions';

/** GET /v3/orgs: the organisations the caller holds grants in, read with one BatchGetItem. */
export const handler = jsonApiHandler('listOrganisations', (request) =>
  listInMemory(request, organisations, () => organisationsInScope(request.scope)),
);
