import { jsonApiHandler } from '#shared/http/json-api-handler';
import { endAppointment } from '#shared/resources/cdm/appointments';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { appointments } from '#shared/resources/cdm/definitions';
import { resourceResponse } from '#shared/resources/single';

/** PATCH /v3/appointments/{appointment_id}: `status: ended` ends it; the record stays as history. */
export const handler = jsonApiHandler('endAppointment', async (request) => {
  const { scope, params, principal, body } = request;
  const { record, file } = await withCdmFile(scope, appointments, params.appointment_id ?? '', principal);
  const ended = await endAppointment(scope, record, file, body, callerOf(principal));
  return resourceResponse(request, appointments, ended);
});
