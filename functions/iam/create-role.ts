import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { parseDocument } from '#shared/jsonapi/request-document';
import { roles } from './definitions';
import { createRole, createRoleDocument } from './role-writes';

export { createRoleDocument as requestBody } from './role-writes';

/** POST /v3/orgs/{org_id}/iam/roles: a custom role from catalogue permissions; 201. */
export const handler = jsonApiHandler('createRole', async (request) => {
  const role = await createRole(
    request.scope,
    request.params.org_id,
    parseDocument(createRoleDocument, request.body),
  );
  return created(await resourceResponse(request, roles, role));
});
