import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { deleteRoleOrGroup } from './role-writes';
import { readRole, refuseBuiltIn } from './virtual-records';

/** DELETE /v3/orgs/{org_id}/iam/roles/{role_id}: 204; 409 while a grant or role group still names it. */
export const handler = jsonApiHandler('deleteRole', async ({ scope, params }) => {
  await deleteRoleOrGroup(scope, refuseBuiltIn(await readRole(scope, params.org_id, params.role_id)));
  return new Reply(204, undefined);
});
