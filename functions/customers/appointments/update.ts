import { updateHandler } from '#shared/http/crud-handlers';
import { appointmentCrud } from '#shared/resources/customers/writes';

/** PATCH /v3/orgs/{org_id}/customers/appointments/{appointment_id} */
export const handler = updateHandler('updateCustomerAppointment', appointmentCrud, 'appointment_id');
