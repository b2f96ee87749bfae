import { schemes } from '#functions/projects/definitions';
import { cdmHandler } from '../cdm-handler';
import { appointments } from '../definitions';
import { createAppointment } from './writes';

export { createAppointmentDocument as requestBody } from './writes';

/** POST /v3/orgs/{org_id}/projects/schemes/{scheme_id}/appointments: appoints a duty holder (see docs/cdm.md). */
export const handler = cdmHandler('createAppointment', {
  path: [schemes, 'scheme_id'],
  write: createAppointment,
  answer: appointments,
  created: true,
});
