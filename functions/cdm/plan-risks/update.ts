import { jsonApiHandler } from '#shared/http/json-api-handler';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { constructionPhasePlans, planRisks } from '#shared/resources/cdm/definitions';
import { updateRisk } from '#shared/resources/cdm/plans';
import { readInScope, resourceResponse } from '#shared/resources/single';

/** PATCH /v3/construction-phase-plan-risks/{risk_id}: before handover, by the Principal Contractor. */
export const handler = jsonApiHandler('updatePlanRisk', async (request) => {
  const { scope, params, principal, body } = request;
  const { record: risk, file } = await withCdmFile(scope, planRisks, params.risk_id ?? '', principal);
  const plan = await readInScope(scope, constructionPhasePlans, String(risk.rels.construction_phase_plan));
  return resourceResponse(
    request,
    planRisks,
    await updateRisk(scope, plan, risk, file, body, callerOf(principal)),
  );
});
