import { createHandler } from '#shared/http/crud-handlers';
import { contactCrud } from '#shared/resources/customers/writes';

/** POST /v3/orgs/{org_id}/customers/contacts: 201 with Location */
export const handler = createHandler('createCustomerContact', contactCrud);
