import { createHandler } from '#shared/http/crud-handlers';
import { agentCrud } from '#shared/resources/agents/writes';

/** POST /v3/orgs/{org_id}/agents: 201 with Location */
export const handler = createHandler('createAgent', agentCrud);
