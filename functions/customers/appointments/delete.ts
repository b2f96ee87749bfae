import { deleteHandler } from '#shared/http/crud-handlers';
import { appointmentCrud } from '#shared/resources/customers/writes';

/** DELETE /v3/orgs/{org_id}/customers/appointments/{appointment_id}: 204 */
export const handler = deleteHandler('deleteCustomerAppointment', appointmentCrud, 'appointment_id');
