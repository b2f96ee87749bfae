import { listChildren } from '#shared/engine/children';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { agents, briefings } from '../definitions';

/** GET /v3/agents/{agent_id}/briefings: newest first; `filter[status]`. */
export const handler = jsonApiHandler('listBriefings', (request) =>
  listChildren(request, agents, request.params.agent_id, briefings),
);
