import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { roleGroups } from './definitions';

/** GET /v3/orgs/{org_id}/iam/role-groups/{role_group_id} */
export const handler = jsonApiHandler('getRoleGroup', async (request) =>
  resourceResponse(
    request,
    roleGroups,
    await readInScope(request.scope, roleGroups, request.params.role_group_id),
  ),
);
