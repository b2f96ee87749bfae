import { deleteHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

/** DELETE /v3/orgs/{org_id}/projects/work-orders/{work_order_id}: 204; soft, restorable with POST …/restore */
export const handler = deleteHandler('deleteWorkOrder', nodeCrud('work-orders'), 'work_order_id');
