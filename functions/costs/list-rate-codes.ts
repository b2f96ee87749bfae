import { listHandler } from '#shared/http/crud-handlers';
import { rateCodes } from '#shared/resources/costs/definitions';

/** GET /v3/orgs/{org_id}/costs/rate-codes */
export const handler = listHandler('listRateCodes', rateCodes);
