import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { parseDocument } from '#shared/jsonapi/request-document';
import { roleGroups } from './definitions';
import { createRoleGroup, createRoleGroupDocument } from './role-writes';

export { createRoleGroupDocument as requestBody } from './role-writes';

/** POST /v3/orgs/{org_id}/iam/role-groups: a bundle of roles; 201. */
export const handler = jsonApiHandler('createRoleGroup', async (request) => {
  const document = parseDocument(createRoleGroupDocument, request.body);
  const group = await createRoleGroup(request.scope, request.params.org_id, document);
  return created(await resourceResponse(request, roleGroups, group));
});
