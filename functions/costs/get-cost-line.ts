import { getHandler } from '#shared/http/crud-handlers';
import { costLines } from '#shared/resources/costs/definitions';

/** GET /v3/orgs/{org_id}/costs/cost-lines/{cost_line_id} (include: rate_code, cost_sheet). */
export const handler = getHandler('getCostLine', costLines, 'cost_line_id');
