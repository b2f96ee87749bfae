import { listHandler } from '#shared/http/crud-handlers';
import { customerAppointments } from '#shared/resources/customers/definitions';

/** GET /v3/orgs/{org_id}/customers/appointments */
export const handler = listHandler('listCustomerAppointments', customerAppointments);
