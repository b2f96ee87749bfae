import { listHandler } from '#shared/http/crud-handlers';
import { costSheets } from '#shared/resources/costs/definitions';

/** GET /v3/orgs/{org_id}/costs/cost-sheets */
export const handler = listHandler('listCostSheets', costSheets);
