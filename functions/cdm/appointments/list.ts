import { schemes } from '#functions/projects/definitions';
import { listChildren } from '#shared/engine/children';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { appointments } from '../definitions';

/** GET /v3/orgs/{org_id}/projects/schemes/{scheme_id}/appointments: active and ended, oldest first. */
export const handler = jsonApiHandler('listAppointments', (request) =>
  listChildren(request, schemes, request.params.scheme_id, appointments),
);
