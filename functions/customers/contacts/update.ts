import { updateHandler } from '#shared/http/crud-handlers';
import { contactCrud } from '#shared/resources/customers/writes';

/** PATCH /v3/orgs/{org_id}/customers/contacts/{contact_id} */
export const handler = updateHandler('updateCustomerContact', contactCrud, 'contact_id');
