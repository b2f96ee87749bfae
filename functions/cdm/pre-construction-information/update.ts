import { jsonApiHandler } from '#shared/http/json-api-handler';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { preConstructionInformation } from '#shared/resources/cdm/definitions';
import { updatePack } from '#shared/resources/cdm/pre-construction';
import { resourceResponse } from '#shared/resources/single';

/** PATCH /v3/pre-construction-information/{id}: writes sections, each only by its owning duty-holder role. */
export const handler = jsonApiHandler('updatePreConstructionInformation', async (request) => {
  const { scope, params, principal, body } = request;
  const { record, file } = await withCdmFile(
    scope,
    preConstructionInformation,
    params.pre_construction_information_id ?? '',
    principal,
  );
  const next = await updatePack(scope, record, file, body, callerOf(principal));
  return resourceResponse(request, preConstructionInformation, next);
});
