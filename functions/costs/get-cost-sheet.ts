import { getHandler } from '#shared/http/crud-handlers';
import { costSheets } from '#shared/resources/costs/definitions';

/** GET /v3/orgs/{org_id}/costs/cost-sheets/{cost_sheet_id} */
export const handler = getHandler('getCostSheet', costSheets, 'cost_sheet_id');
