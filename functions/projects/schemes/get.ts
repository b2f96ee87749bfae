import { getHandler } from '#shared/http/crud-handlers';
import { schemes } from '#shared/resources/projects/definitions';

/** GET /v3/orgs/{org_id}/projects/schemes/{scheme_id} */
export const handler = getHandler('getScheme', schemes, 'scheme_id');
