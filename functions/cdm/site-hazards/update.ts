import { jsonApiHandler } from '#shared/http/json-api-handler';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { siteHazards } from '#shared/resources/cdm/definitions';
import { updateHazard } from '#shared/resources/cdm/pre-construction';
import { resourceResponse } from '#shared/resources/single';

/** PATCH /v3/site-hazards/{site_hazard_id}: the Client changes it, or retires it with `status: retired`. */
export const handler = jsonApiHandler('updateSiteHazard', async (request) => {
  const { scope, params, principal, body } = request;
  const { record, file } = await withCdmFile(scope, siteHazards, params.site_hazard_id ?? '', principal);
  return resourceResponse(
    request,
    siteHazards,
    await updateHazard(scope, record, file, body, callerOf(principal)),
  );
});
