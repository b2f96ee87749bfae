import { getHandler } from '#shared/http/crud-handlers';
import { agents } from '#shared/resources/agents/definitions';

/** GET /v3/orgs/{org_id}/agents/{agent_id} */
export const handler = getHandler('getAgent', agents, 'agent_id');
