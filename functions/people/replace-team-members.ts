import { teamMembersHandler } from './team-members-handler';

export { teamMembersDocument as requestBody } from './team-member-writes';

/** PATCH /v3/orgs/{org_id}/people/teams/{team_id}/relationships/members: makes the members exactly those named. */
export const handler = teamMembersHandler('replaceTeamMembers', 'replace');
