import { listHandler } from '#shared/http/crud-handlers';
import { protections } from '#shared/resources/street-works/definitions';

/** GET /v3/orgs/{org_id}/street-works/protections */
export const handler = listHandler('listStreetWorksProtections', protections);
