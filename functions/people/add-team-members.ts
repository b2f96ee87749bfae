import { teamMembersHandler } from './team-members-handler';

export { teamMembersDocument as requestBody } from './team-member-writes';

/** POST /v3/orgs/{org_id}/people/teams/{team_id}/relationships/members: adds the users named (members already stay once). */
export const handler = teamMembersHandler('addTeamMembers', 'add');
