import { listResources } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { teams } from './teams';

/** GET /v3/orgs/{org_id}/people/teams (include: members). */
export const handler = jsonApiHandler('listTeams', (request) => listResources(request, teams));
