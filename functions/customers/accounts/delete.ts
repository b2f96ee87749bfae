import { deleteHandler } from '#shared/http/crud-handlers';
import { accountCrud } from '#shared/resources/customers/writes';

/** DELETE /v3/orgs/{org_id}/customers/accounts/{account_id}: 204 */
export const handler = deleteHandler('deleteCustomerAccount', accountCrud, 'account_id');
