import { jsonApiHandler } from '#shared/http/json-api-handler';
import { jsonapi } from '#shared/jsonapi/document';
import { rateCodes } from '#shared/resources/costs/definitions';
import { listRateVersions, versionResource } from '#shared/resources/costs/register';
import { readInScope } from '#shared/resources/single';

/** GET …/rate-codes/{rate_code_id}/versions: newest first. */
export const handler = jsonApiHandler('listRateCodeVersions', async ({ scope, params, baseUrl }) => {
  const code = await readInScope(scope, rateCodes, params.rate_code_id ?? '');
  return {
    jsonapi,
    data: (await listRateVersions(scope, code)).map((v) => versionResource(code, v, baseUrl)),
  };
});
