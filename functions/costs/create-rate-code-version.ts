import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { jsonapi } from '#shared/jsonapi/document';
import { rateCodes } from '#shared/resources/costs/definitions';
import { addRateVersion, versionResource } from '#shared/resources/costs/register';
import { readInScope } from '#shared/resources/single';

export { rateVersionDocument as requestBody } from '#shared/resources/costs/register';

/** POST …/rate-codes/{rate_code_id}/versions: a new rate from `valid_from`; 201. Existing lines keep their snapshots. */
export const handler = jsonApiHandler('createRateCodeVersion', async ({ scope, params, body, baseUrl }) => {
  const code = await readInScope(scope, rateCodes, params.rate_code_id);
  return created({ jsonapi, data: versionResource(code, await addRateVersion(scope, code, body), baseUrl) });
});
