import { getHandler } from '#shared/http/crud-handlers';
import { organisations } from '#shared/resources/organisations';

/** GET /v3/orgs/{org_id}: an organisation the caller holds grants in (organisations:view there). */
export const handler = getHandler('getOrganisation', organisations, 'org_id');
