import { deleteHandler } from '#shared/http/crud-handlers';
import { contactCrud } from '#shared/resources/customers/writes';

/** DELETE /v3/orgs/{org_id}/customers/contacts/{contact_id}: 204 */
export const handler = deleteHandler('deleteCustomerContact', contactCrud, 'contact_id');
