import { createHandler } from '#shared/http/crud-handlers';
import { rateCodeCrud } from '#shared/resources/costs/register';

/** POST /v3/orgs/{org_id}/costs/rate-codes: 201; `code` is unique in the organisation */
export const handler = createHandler('createRateCode', rateCodeCrud);
