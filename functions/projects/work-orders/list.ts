import { listHandler } from '#shared/http/crud-handlers';
import { workOrders } from '#shared/resources/projects/definitions';

/** GET /v3/orgs/{org_id}/projects/work-orders: deleted ones are left out */
export const handler = listHandler('listWorkOrders', workOrders);
