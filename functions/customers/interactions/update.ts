import { updateHandler } from '#shared/http/crud-handlers';
import { interactionCrud } from '#shared/resources/customers/writes';

/** PATCH /v3/orgs/{org_id}/customers/interactions/{interaction_id} */
export const handler = updateHandler('updateCustomerInteraction', interactionCrud, 'interaction_id');
