import { deleteHandler } from '#shared/http/crud-handlers';
import { interactionCrud } from '#shared/resources/customers/writes';

/** DELETE /v3/orgs/{org_id}/customers/interactions/{interaction_id}: 204 */
export const handler = deleteHandler('deleteCustomerInteraction', interactionCrud, 'interaction_id');
