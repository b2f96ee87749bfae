import { applyInMemory } from '#shared/data/in-memory-collection';
import { batchGetInScope } from '#shared/data/repository';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listResources } from '#shared/resources/collection';
import { organisations } from '#shared/resources/organisations';

/** GET /v3/orgs: the organisations the caller holds grants in, read with one BatchGetItem. */
export const handler = jsonApiHandler('listOrganisations', (request) =>
  listResources(request, organisations, async (query) => {
    const keys = request.scope.orgIds.map((id) => organisations.keyOf(id, id));
    return applyInMemory(await batchGetInScope(request.scope, keys), query);
  }),
);
