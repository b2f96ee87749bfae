import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { costLines, costSheets } from './definitions';
import { addLine } from './sheets';

export { createLineDocument as requestBody } from './sheets';

/** POST …/cost-sheets/{cost_sheet_id}/lines: snapshots the rate in force at `at` (default now); 201. */
export const handler = jsonApiHandler('createCostLine', async (request) => {
  const sheet = await readInScope(request.scope, costSheets, request.params.cost_sheet_id);
  return created(
    await resourceResponse(request, costLines, await addLine(request.scope, sheet, request.body)),
  );
});
