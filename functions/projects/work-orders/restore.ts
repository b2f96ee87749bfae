import { restoreHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

/** POST /v3/orgs/{org_id}/projects/work-orders/{work_order_id}/restore: back to its place in the tree. */
export const handler = restoreHandler('restoreWorkOrder', nodeCrud('work-orders'), 'work_order_id');
