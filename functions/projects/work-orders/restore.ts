import { jsonApiHandler } from '#shared/http/json-api-handler';
import { workOrders } from '#shared/resources/projects/definitions';
import { nodeCrud } from '#shared/resources/projects/hierarchy';
import { resourceResponse } from '#shared/resources/single';

const crud = nodeCrud('work-orders');

/** POST /v3/orgs/{org_id}/projects/work-orders/{work_order_id}/restore: brings a soft-deleted node back to its place in the tree. */
export const handler = jsonApiHandler('restoreWorkOrder', async (request) => {
  const restored = await crud.restore(
    request.scope,
    request.params.org_id ?? '',
    request.params.work_order_id ?? '',
  );
  return resourceResponse(request, workOrders, restored);
});
