import { listChildren } from '#shared/engine/children';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { appointments } from '#shared/resources/cdm/definitions';
import { schemes } from '#shared/resources/projects/definitions';

/** GET /v3/orgs/{org_id}/projects/schemes/{scheme_id}/appointments: active and ended, oldest first. */
export const handler = jsonApiHandler('listAppointments', (request) =>
  listChildren(request, schemes, request.params.scheme_id, appointments),
);
