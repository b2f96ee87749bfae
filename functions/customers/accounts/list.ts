import { listHandler } from '#shared/http/crud-handlers';
import { customerAccounts } from '#shared/resources/customers/definitions';

/** GET /v3/orgs/{org_id}/customers/accounts */
export const handler = listHandler('listCustomerAccounts', customerAccounts);
