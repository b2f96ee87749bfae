import { updateHandler } from '#shared/http/crud-handlers';
import { nodeCrud } from '#shared/resources/projects/hierarchy';

/** PATCH /v3/orgs/{org_id}/projects/work-orders/{work_order_id}: partial update */
export const handler = updateHandler('updateWorkOrder', nodeCrud('work-orders'), 'work_order_id');
