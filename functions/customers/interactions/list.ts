import { listHandler } from '#shared/http/crud-handlers';
import { customerInteractions } from '#shared/resources/customers/definitions';

/** GET /v3/orgs/{org_id}/customers/interactions */
export const handler = listHandler('listCustomerInteractions', customerInteractions);
