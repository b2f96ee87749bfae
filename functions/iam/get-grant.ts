import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { grants } from './definitions';

/** GET /v3/orgs/{org_id}/iam/grants/{grant_id} */
export const handler = jsonApiHandler('getGrant', async (request) =>
  resourceResponse(request, grants, await readInScope(request.scope, grants, request.params.grant_id)),
);
