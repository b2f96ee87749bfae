import { teamMembersHandler } from './team-members-handler';

/** GET /v3/orgs/{org_id}/people/teams/{team_id}/relationships/members: the team's members, its lead marked. */
export const handler = teamMembersHandler('getTeamMembers', null);
