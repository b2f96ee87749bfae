import { getHandler } from '#shared/http/crud-handlers';
import { teams } from '#shared/resources/teams';

/** GET /v3/orgs/{org_id}/people/teams/{team_id} (include: members). */
export const handler = getHandler('getTeam', teams, 'team_id');
