import { updateHandler } from '#shared/http/crud-handlers';
import { accountCrud } from '#shared/resources/customers/writes';

/** PATCH /v3/orgs/{org_id}/customers/accounts/{account_id} */
export const handler = updateHandler('updateCustomerAccount', accountCrud, 'account_id');
