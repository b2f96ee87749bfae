import { createHandler } from '#shared/http/crud-handlers';
import { appointmentCrud } from '#shared/resources/customers/writes';

/** POST /v3/orgs/{org_id}/customers/appointments: 201 with Location */
export const handler = createHandler('createCustomerAppointment', appointmentCrud);
