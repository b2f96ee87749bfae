import { listHandler } from '#shared/http/crud-handlers';
import { streetWorks } from '#shared/resources/street-works/definitions';

/** GET /v3/orgs/{org_id}/street-works/activities */
export const handler = listHandler('listStreetWorks', streetWorks);
