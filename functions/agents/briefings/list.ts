import { jsonApiHandler } from '#shared/http/json-api-handler';
import { agents, briefings } from '#shared/resources/agents/definitions';
import { listChildren } from '#shared/resources/children';

/** GET /v3/agents/{agent_id}/briefings: newest first; `filter[status]`. */
export const handler = jsonApiHandler('listBriefings', (request) =>
  listChildren(request, agents, request.params.agent_id, briefings),
);
