import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { updateAction } from './action-writes';
import { actions } from './definitions';

export { updateActionDocument as requestBody } from './action-writes';

/** PATCH /v3/actions/{id}: what it says and is about; its status, assignee and claimant move by its moves. */
export const handler = jsonApiHandler('updateAction', async (request) => {
  const action = await readInScope(request.scope, actions, request.params.action_id);
  return resourceResponse(request, actions, await updateAction(request.scope, action, request.body));
});
