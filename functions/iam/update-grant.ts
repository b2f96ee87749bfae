import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { parseDocument } from '#shared/jsonapi/request-document';
import { grants } from './definitions';
import { updateGrant, updateGrantDocument } from './grant-writes';

export { updateGrantDocument as requestBody } from './grant-writes';

/** PATCH /v3/orgs/{org_id}/iam/grants/{grant_id}: change the role or role group a grant gives. */
export const handler = jsonApiHandler('updateGrant', async (request) => {
  const document = parseDocument(updateGrantDocument, request.body);
  const grant = await readInScope(request.scope, grants, request.params.grant_id);
  return resourceResponse(request, grants, await updateGrant(request.scope, grant, document));
});
