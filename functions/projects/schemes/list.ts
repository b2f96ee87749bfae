import { listHandler } from '#shared/http/crud-handlers';
import { schemes } from '#shared/resources/projects/definitions';

/** GET /v3/orgs/{org_id}/projects/schemes: deleted ones are left out */
export const handler = listHandler('listSchemes', schemes);
