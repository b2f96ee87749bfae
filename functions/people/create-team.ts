import { toResourceObject } from '#shared/engine/serialise';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { resourceDocument } from '#shared/jsonapi/document';
import { createTeam } from './team-writes';
import { teams } from './teams';

export { createTeamDocument as requestBody } from './team-writes';

/** POST /v3/orgs/{org_id}/people/teams: 201 with the team and its Location. */
export const handler = jsonApiHandler('createTeam', async (request) => {
  const { body, params, scope } = request;
  const team = await createTeam({ scope, orgId: params.org_id, principal: request.principal }, body);
  return created(resourceDocument(request, toResourceObject(teams, team, request.baseUrl)));
});
