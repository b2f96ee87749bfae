import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { resourceDocument } from '#shared/jsonapi/document';
import { rateCodes } from './definitions';
import { addRateVersion, versionResource } from './register';

export { rateVersionDocument as requestBody } from './register';

/** POST …/rate-codes/{rate_code_id}/versions: a new rate from `valid_from`; 201. Existing lines keep their snapshots. */
export const handler = jsonApiHandler('createRateCodeVersion', async (request) => {
  const { scope, params, body } = request;
  const code = await readInScope(scope, rateCodes, params.rate_code_id);
  const version = await addRateVersion(scope, code, body);
  return created(resourceDocument(request, versionResource(code, version, request.baseUrl)));
});
