import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { costSheets } from './definitions';
import { createSheet } from './sheets';

export { createSheetDocument as requestBody } from './sheets';

/** POST /v3/orgs/{org_id}/costs/cost-sheets: on one node of the hierarchy; 201. */
export const handler = jsonApiHandler('createCostSheet', async (request) => {
  const sheet = await createSheet(request.scope, request.params.org_id, request.body, request.principal);
  return created(await resourceResponse(request, costSheets, sheet));
});
