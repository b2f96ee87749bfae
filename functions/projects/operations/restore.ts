import { jsonApiHandler } from '#shared/http/json-api-handler';
import { operations } from '#shared/resources/projects/definitions';
import { nodeCrud } from '#shared/resources/projects/hierarchy';
import { resourceResponse } from '#shared/resources/single';

const crud = nodeCrud('operations');

/** POST /v3/orgs/{org_id}/projects/operations/{operation_id}/restore: brings a soft-deleted node back to its place in the tree. */
export const handler = jsonApiHandler('restoreOperation', async (request) => {
  const restored = await crud.restore(
    request.scope,
    request.params.org_id ?? '',
    request.params.operation_id ?? '',
  );
  return resourceResponse(request, operations, restored);
});
