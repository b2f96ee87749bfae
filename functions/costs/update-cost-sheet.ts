import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { costSheets } from './definitions';
import { updateSheet } from './sheets';

export { updateSheetDocument as requestBody } from './sheets';

/** PATCH …/cost-sheets/{cost_sheet_id}: its name (its status moves by its declared transitions). */
export const handler = jsonApiHandler('updateCostSheet', async (request) => {
  const sheet = await readInScope(request.scope, costSheets, request.params.cost_sheet_id);
  return resourceResponse(request, costSheets, await updateSheet(request.scope, sheet, request.body));
});
