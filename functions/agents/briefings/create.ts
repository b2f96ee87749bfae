import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { agents, briefings } from '../definitions';
import { createBriefing } from '../writes';

export { createBriefingDocument as requestBody } from '../writes';

/** POST /v3/agents/{agent_id}/briefings (spec): stores the generated result; 201 with the briefing. */
export const handler = jsonApiHandler('createBriefing', async (request) => {
  const agent = await readInScope(request.scope, agents, request.params.agent_id);
  const briefing = await createBriefing(request.scope, agent, request.body);
  return created(await resourceResponse(request, briefings, briefing));
});
