import { jsonApiHandler } from '#shared/http/json-api-handler';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { constructionPhasePlans } from '#shared/resources/cdm/definitions';
import { updatePlan } from '#shared/resources/cdm/plans';
import { resourceResponse } from '#shared/resources/single';

/** PATCH /v3/construction-phase-plans/{id}: writes sections before handover, each by its owning role. */
export const handler = jsonApiHandler('updateConstructionPhasePlan', async (request) => {
  const { scope, params, principal, body } = request;
  const { record, file } = await withCdmFile(
    scope,
    constructionPhasePlans,
    params.construction_phase_plan_id ?? '',
    principal,
  );
  return resourceResponse(
    request,
    constructionPhasePlans,
    await updatePlan(scope, record, file, body, callerOf(principal)),
  );
});
