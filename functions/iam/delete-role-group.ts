import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { roleGroups } from './definitions';
import { deleteRoleOrGroup } from './role-writes';

/** DELETE /v3/orgs/{org_id}/iam/role-groups/{role_group_id}: 204; 409 while a grant still names it. */
export const handler = jsonApiHandler('deleteRoleGroup', async ({ scope, params }) => {
  await deleteRoleOrGroup(scope, await readInScope(scope, roleGroups, params.role_group_id));
  return new Reply(204, undefined);
});
