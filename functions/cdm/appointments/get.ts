import { getHandler } from '#shared/http/crud-handlers';
import { appointments } from '#shared/resources/cdm/definitions';

/** GET /v3/appointments/{appointment_id} */
export const handler = getHandler('getAppointment', appointments, 'appointment_id');
