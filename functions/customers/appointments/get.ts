import { getHandler } from '#shared/http/crud-handlers';
import { customerAppointments } from '#shared/resources/customers/definitions';

/** GET /v3/orgs/{org_id}/customers/appointments/{appointment_id} */
export const handler = getHandler('getCustomerAppointment', customerAppointments, 'appointment_id');
