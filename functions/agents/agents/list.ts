import { listHandler } from '#shared/http/crud-handlers';
import { agents } from '#shared/resources/agents/definitions';

/** GET /v3/orgs/{org_id}/agents */
export const handler = listHandler('listAgents', agents);
