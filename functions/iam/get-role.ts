import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { roles } from './definitions';
import { readRole } from './virtual-records';

/** GET /v3/orgs/{org_id}/iam/roles/{role_id}: a built-in role (string id) or a custom role. */
export const handler = jsonApiHandler('getRole', async (request) =>
  resourceResponse(
    request,
    roles,
    await readRole(request.scope, request.params.org_id, request.params.role_id),
  ),
);
