import { batchGetInScope } from '#shared/data/repository';
import { listInMemory } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { organisations } from './definitions';

/** GET /v3/orgs: the organisations the caller holds grants in (those of its scope), read with one BatchGetItem. */
export const handler = jsonApiHandler('listOrganisations', (request) =>
  listInMemory(request, organisations, () =>
    batchGetInScope(
      request.scope,
      request.scope.orgIds.map((id) => organisations.keyOf(id, id)),
    ),
  ),
);
