import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { grants } from './definitions';
import { deleteGrant } from './grant-writes';

/** DELETE /v3/orgs/{org_id}/iam/grants/{grant_id}: 204; the grant stops counting within GRANT_CACHE_SECONDS. */
export const handler = jsonApiHandler('deleteGrant', async ({ scope, params }) => {
  await deleteGrant(scope, await readInScope(scope, grants, params.grant_id));
  return new Reply(204, undefined);
});
