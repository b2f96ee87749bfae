import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { preConstructionInformation, siteHazards } from '#shared/resources/cdm/definitions';
import { createHazard } from '#shared/resources/cdm/pre-construction';
import { resourceResponse } from '#shared/resources/single';

/** POST /v3/pre-construction-information/{id}/site-hazards: the Client records a site hazard. */
export const handler = jsonApiHandler('createSiteHazard', async (request) => {
  const { scope, params, principal, body } = request;
  const { record: pack, file } = await withCdmFile(
    scope,
    preConstructionInformation,
    params.pre_construction_information_id ?? '',
    principal,
  );
  const hazard = await createHazard(scope, pack, file, body, callerOf(principal));
  return new Reply(201, await resourceResponse(request, siteHazards, hazard), {
    Location: `${request.baseUrl}${siteHazards.selfPath(hazard)}`,
  });
});
