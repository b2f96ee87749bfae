import { listResourceObjects } from '#shared/engine/collection';
import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { rateCodes } from './definitions';
import { listRateVersions, rateVersionOptions, versionResource } from './register';

export { rateVersionOptions as collectionOptions } from './register';

/** GET …/rate-codes/{rate_code_id}/versions: newest first; `filter[id]` picks one (its `links.self`). */
export const handler = jsonApiHandler('listRateCodeVersions', async (request) => {
  const code = await readInScope(request.scope, rateCodes, request.params.rate_code_id);
  const versions = await listRateVersions(request.scope, code);
  return listResourceObjects(
    request,
    rateVersionOptions,
    versions.map((v) => versionResource(code, v, request.baseUrl)),
  );
});
