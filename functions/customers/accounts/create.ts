import { createHandler } from '#shared/http/crud-handlers';
import { accountCrud } from '#shared/resources/customers/writes';

/** POST /v3/orgs/{org_id}/customers/accounts: 201 with Location */
export const handler = createHandler('createCustomerAccount', accountCrud);
