import { applyInMemory } from '#shared/data/in-memory-collection';
import { readPartition } from '#shared/data/repository';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listResources } from '#shared/resources/collection';
import { exportsDefinition } from '#shared/resources/exports/definitions';
import { isCreator } from '#shared/resources/exports/run';

/** GET /v3/orgs/{org_id}/exports: the caller's own exports of the last 30 days. */
export const handler = jsonApiHandler('listExports', (request) => {
  const orgId = request.params.org_id ?? '';
  return listResources(request, exportsDefinition, async (query) =>
    applyInMemory(
      (await readPartition(request.scope, orgId, exportsDefinition.type)).filter((r) =>
        isCreator(r, request.principal),
      ),
      query,
    ),
  );
});
