import { getHandler } from '#shared/http/crud-handlers';
import { customerAccounts } from '#shared/resources/customers/definitions';

/** GET /v3/orgs/{org_id}/customers/accounts/{account_id} */
export const handler = getHandler('getCustomerAccount', customerAccounts, 'account_id');
