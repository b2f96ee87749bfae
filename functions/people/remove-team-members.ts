import { teamMembersHandler } from './team-members-handler';

export { teamMembersDocument as requestBody } from './team-member-writes';

/** DELETE /v3/orgs/{org_id}/people/teams/{team_id}/relationships/members: removes the users named. */
export const handler = teamMembersHandler('removeTeamMembers', 'remove');
