import { updateHandler } from '#shared/http/crud-handlers';
import { agentCrud } from '#shared/resources/agents/writes';

/** PATCH /v3/orgs/{org_id}/agents/{agent_id} */
export const handler = updateHandler('updateAgent', agentCrud, 'agent_id');
