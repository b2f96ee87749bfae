import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { parseDocument } from '#shared/jsonapi/request-document';
import { roleGroups } from './definitions';
import { updateRoleGroup, updateRoleGroupDocument } from './role-writes';

export { updateRoleGroupDocument as requestBody } from './role-writes';

/** PATCH /v3/orgs/{org_id}/iam/role-groups/{role_group_id}: name, description and the `roles` it bundles. */
export const handler = jsonApiHandler('updateRoleGroup', async (request) => {
  const document = parseDocument(updateRoleGroupDocument, request.body);
  const group = await readInScope(request.scope, roleGroups, request.params.role_group_id);
  return resourceResponse(request, roleGroups, await updateRoleGroup(request.scope, group, document));
});
