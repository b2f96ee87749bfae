import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { createAction } from './action-writes';
import { actions } from './definitions';

export { createActionDocument as requestBody } from './action-writes';

/**
 * POST /v3/orgs/{org_id}/actions: 201, the action, open; 200 with `meta.deduplicated: true`, the action a
 * repeated `producer.key` made before.
 */
export const handler = jsonApiHandler('createAction', async (request) => {
  const { action, deduplicated } = await createAction(
    request.scope,
    request.params.org_id,
    request.body,
    request.principal,
  );
  const document = await resourceResponse(request, actions, action);
  return deduplicated ? { ...document, meta: { deduplicated: true } } : created(document);
});
