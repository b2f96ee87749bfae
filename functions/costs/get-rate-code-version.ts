import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { resourceDocument } from '#shared/jsonapi/document';
import { rateCodes } from './definitions';
import { readRateVersion, versionResource } from './register';

/** GET …/rate-codes/{rate_code_id}/versions/{rate_code_version_id}: one rate of the code. */
export const handler = jsonApiHandler('getRateCodeVersion', async (request) => {
  const { scope, params } = request;
  const code = await readInScope(scope, rateCodes, params.rate_code_id);
  const version = await readRateVersion(scope, code, params.rate_code_version_id);
  return resourceDocument(request, versionResource(code, version, request.baseUrl));
});
