import { listHandler } from '#shared/http/crud-handlers';
import { permits } from '#shared/resources/street-works/definitions';

/** GET /v3/orgs/{org_id}/street-works/permits */
export const handler = listHandler('listPermits', permits);
