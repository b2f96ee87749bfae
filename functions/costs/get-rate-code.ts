import { getHandler } from '#shared/http/crud-handlers';
import { rateCodes } from '#shared/resources/costs/definitions';

/** GET /v3/orgs/{org_id}/costs/rate-codes/{rate_code_id} */
export const handler = getHandler('getRateCode', rateCodes, 'rate_code_id');
