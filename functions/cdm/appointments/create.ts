import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { createAppointment } from '#shared/resources/cdm/appointments';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { appointments } from '#shared/resources/cdm/definitions';
import { schemes } from '#shared/resources/projects/definitions';
import { resourceResponse } from '#shared/resources/single';

/** POST /v3/orgs/{org_id}/projects/schemes/{scheme_id}/appointments: appoints a duty holder. */
export const handler = jsonApiHandler('createAppointment', async (request) => {
  const { scope, params, principal, body } = request;
  const { record: scheme, file } = await withCdmFile(scope, schemes, params.scheme_id ?? '', principal);
  const created = await createAppointment(scope, scheme, file, body, callerOf(principal));
  return new Reply(201, await resourceResponse(request, appointments, created), {
    Location: `${request.baseUrl}${appointments.selfPath(created)}`,
  });
});
