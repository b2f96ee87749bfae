import { endAppointment } from '#shared/resources/cdm/appointments';
import { cdmHandler } from '#shared/resources/cdm/cdm-handler';
import { appointments } from '#shared/resources/cdm/definitions';

export { endAppointmentDocument as requestBody } from '#shared/resources/cdm/appointments';

/** PATCH /v3/appointments/{appointment_id}: `status: ended` ends it; the record stays as history. */
export const handler = cdmHandler('endAppointment', {
  path: [appointments, 'appointment_id'],
  write: endAppointment,
});
