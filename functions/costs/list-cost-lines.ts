import { listHandler } from '#shared/http/crud-handlers';
import { costLines } from '#shared/resources/costs/definitions';

/** GET /v3/orgs/{org_id}/costs/cost-lines (filter[cost_sheet], filter[kind]) */
export const handler = listHandler('listCostLines', costLines);
