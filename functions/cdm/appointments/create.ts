import { createAppointment } from '#shared/resources/cdm/appointments';
import { cdmHandler } from '#shared/resources/cdm/cdm-handler';
import { appointments } from '#shared/resources/cdm/definitions';
import { schemes } from '#shared/resources/projects/definitions';

export { createAppointmentDocument as requestBody } from '#shared/resources/cdm/appointments';

/** POST /v3/orgs/{org_id}/projects/schemes/{scheme_id}/appointments: appoints a duty holder (see docs/cdm.md). */
export const handler = cdmHandler('createAppointment', {
  path: [schemes, 'scheme_id'],
  write: createAppointment,
  answer: appointments,
  created: true,
});
