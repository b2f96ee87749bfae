import { getHandler } from '#shared/http/crud-handlers';
import { customerInteractions } from '#shared/resources/customers/definitions';

/** GET /v3/orgs/{org_id}/customers/interactions/{interaction_id} */
export const handler = getHandler('getCustomerInteraction', customerInteractions, 'interaction_id');
