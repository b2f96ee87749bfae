import { deleteHandler } from '#shared/http/crud-handlers';
import { agentCrud } from '#shared/resources/agents/writes';

/** DELETE /v3/orgs/{org_id}/agents/{agent_id}: 204 */
export const handler = deleteHandler('deleteAgent', agentCrud, 'agent_id');
