import { getHandler } from '#shared/http/crud-handlers';
import { workOrders } from '#shared/resources/projects/definitions';

/** GET /v3/orgs/{org_id}/projects/work-orders/{work_order_id} */
export const handler = getHandler('getWorkOrder', workOrders, 'work_order_id');
