import { cdmHandler } from '../cdm-handler';
import { appointments } from '../definitions';
import { endAppointment } from './writes';

export { endAppointmentDocument as requestBody } from './writes';

/** PATCH /v3/appointments/{appointment_id}: `status: ended` ends it; the record stays as history. */
export const handler = cdmHandler('endAppointment', {
  path: [appointments, 'appointment_id'],
  write: endAppointment,
});
