import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { parseDocument } from '#shared/jsonapi/request-document';
import { roles } from './definitions';
import { updateRole, updateRoleDocument } from './role-writes';
import { readRole, refuseBuiltIn } from './virtual-records';

export { updateRoleDocument as requestBody } from './role-writes';

/** PATCH /v3/orgs/{org_id}/iam/roles/{role_id}: custom roles only; holders' access follows within the grant cache time. */
export const handler = jsonApiHandler('updateRole', async (request) => {
  const document = parseDocument(updateRoleDocument, request.body);
  const role = refuseBuiltIn(await readRole(request.scope, request.params.org_id, request.params.role_id));
  return resourceResponse(request, roles, await updateRole(request.scope, role, document));
});
