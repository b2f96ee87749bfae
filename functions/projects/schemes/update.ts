import { updateHandler } from '#shared/http/crud-handlers';
import { nodeCrud } from '#shared/resources/projects/hierarchy';

/** PATCH /v3/orgs/{org_id}/projects/schemes/{scheme_id}: partial update */
export const handler = updateHandler('updateScheme', nodeCrud('schemes'), 'scheme_id');
