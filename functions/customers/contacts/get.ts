import { getHandler } from '#shared/http/crud-handlers';
import { customerContacts } from '#shared/resources/customers/definitions';

/** GET /v3/orgs/{org_id}/customers/contacts/{contact_id} */
export const handler = getHandler('getCustomerContact', customerContacts, 'contact_id');
