import { jsonApiHandler } from '#shared/http/json-api-handler';
import { schemes } from '#shared/resources/projects/definitions';
import { nodeCrud } from '#shared/resources/projects/hierarchy';
import { resourceResponse } from '#shared/resources/single';

const crud = nodeCrud('schemes');

/** POST /v3/orgs/{org_id}/projects/schemes/{scheme_id}/restore: brings a soft-deleted node back to its place in the tree. */
export const handler = jsonApiHandler('restoreScheme', async (request) => {
  const restored = await crud.restore(
    request.scope,
    request.params.org_id ?? '',
    request.params.scheme_id ?? '',
  );
  return resourceResponse(request, schemes, restored);
});
