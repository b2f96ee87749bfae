import { deleteRecord } from '#shared/engine/record-writes';
import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { ConflictError } from '#shared/jsonapi/errors';
import { teamGrantsOf } from './invitation-authority';
import { ids } from './joining';
import { teamDeleteRefusal } from './rules/team-membership';
import { teams } from './teams';

/**
 * DELETE /v3/orgs/{org_id}/people/teams/{team_id}: 409 while it has members or holds grants (what its
 * members would otherwise keep, or a grant would give nobody); else 204. The delete is conditional on
 * the version read, so a member added meanwhile refuses it (and `If-Match` makes it 412).
 */
export const handler = jsonApiHandler('deleteTeam', async ({ scope, params }) => {
  const team = await readInScope(scope, teams, params.team_id);
  const grants = await teamGrantsOf(team.org_id, [team.id]);
  const refusal = teamDeleteRefusal(ids(team.rels.members).length, grants.length);
  if (refusal) throw new ConflictError(refusal);
  await deleteRecord(scope, team);
  return new Reply(204, undefined);
});
