/** The team members relationship endpoints: one handler shape for reading and each kind of change. */
import { signedIn } from '#shared/auth/signed-in';
import type { StoredResource } from '#shared/data/stored-resource';
import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { routePath } from '#shared/http/links';
import type { RouteId } from '#shared/http/route-table';
import { jsonapi } from '#shared/jsonapi/document';
import type { MembershipChange } from './rules/team-membership';
import { changeTeamMembers, membershipOf } from './team-member-writes';
import { teams } from './teams';

/** `{data: [{type: 'users', id, meta?: {lead: true}}], links}`: the members, the lead marked. */
const linkage = (team: StoredResource, baseUrl: string) => {
  const { members, lead } = membershipOf(team);
  const at = { org_id: team.org_id, team_id: team.id };
  return {
    jsonapi,
    data: members.map((id) => ({ type: 'users', id, ...(id === lead && { meta: { lead: true } }) })),
    links: {
      self: `${baseUrl}${routePath('getTeamMembers', at)}`,
      related: `${baseUrl}${routePath('getTeam', at)}?include=members`,
    },
  };
};

export const teamMembersHandler = (
  routeId: Extract<RouteId, `${string}TeamMembers`>,
  change: MembershipChange | null,
) =>
  jsonApiHandler(routeId, async (request) => {
    const { scope, params, body, baseUrl, principal } = request;
    const team = await readInScope(scope, teams, params.team_id);
    if (change === null) return linkage(team, baseUrl);
    const next = await changeTeamMembers(
      { scope, orgId: team.org_id, principal: signedIn(principal), team, change },
      body,
    );
    return linkage(next, baseUrl);
  });
