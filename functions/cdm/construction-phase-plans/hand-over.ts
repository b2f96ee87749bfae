import { jsonApiHandler } from '#shared/http/json-api-handler';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { constructionPhasePlans } from '#shared/resources/cdm/definitions';
import { handOver } from '#shared/resources/cdm/plans';
import { resourceResponse } from '#shared/resources/single';

/** POST /v3/construction-phase-plans/{id}/handover: the Principal Contractor hands over a complete plan. */
export const handler = jsonApiHandler('handOverConstructionPhasePlan', async (request) => {
  const { scope, params, principal } = request;
  const { record, file } = await withCdmFile(
    scope,
    constructionPhasePlans,
    params.construction_phase_plan_id ?? '',
    principal,
  );
  return resourceResponse(
    request,
    constructionPhasePlans,
    await handOver(scope, record, file, callerOf(principal)),
  );
});
