import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { parseDocument } from '#shared/jsonapi/request-document';
import { grants } from './definitions';
import { createGrant, createGrantDocument } from './grant-writes';

export { createGrantDocument as requestBody } from './grant-writes';

/** POST /v3/orgs/{org_id}/iam/grants: a role or role group to a user, team or service account; 201. */
export const handler = jsonApiHandler('createGrant', async (request) => {
  const grant = await createGrant(
    request.scope,
    request.params.org_id,
    parseDocument(createGrantDocument, request.body),
  );
  const answer = await resourceResponse(request, grants, grant);
  return created(answer);
});
