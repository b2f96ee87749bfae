import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listResourceObjects } from '#shared/resources/collection';
import { rateCodes } from '#shared/resources/costs/definitions';
import { listRateVersions, rateVersionOptions, versionResource } from '#shared/resources/costs/register';
import { readInScope } from '#shared/resources/single';

export { rateVersionOptions as collectionOptions } from '#shared/resources/costs/register';

/** GET …/rate-codes/{rate_code_id}/versions: newest first; `filter[id]` picks one (its `links.self`). */
export const handler = jsonApiHandler('listRateCodeVersions', async ({ scope, params, query, baseUrl }) => {
  const code = await readInScope(scope, rateCodes, params.rate_code_id);
  const versions = await listRateVersions(scope, code);
  return listResourceObjects(
    query,
    rateVersionOptions,
    versions.map((v) => versionResource(code, v, baseUrl)),
  );
});
