import { listHandler } from '#shared/http/crud-handlers';
import { customerContacts } from '#shared/resources/customers/definitions';

/** GET /v3/orgs/{org_id}/customers/contacts */
export const handler = listHandler('listCustomerContacts', customerContacts);
