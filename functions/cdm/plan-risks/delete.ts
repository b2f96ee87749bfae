import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { constructionPhasePlans, planRisks } from '#shared/resources/cdm/definitions';
import { deleteRisk } from '#shared/resources/cdm/plans';
import { readInScope } from '#shared/resources/single';

/** DELETE /v3/construction-phase-plan-risks/{risk_id}: before handover, by the Principal Contractor. */
export const handler = jsonApiHandler('deletePlanRisk', async (request) => {
  const { scope, params, principal } = request;
  const { record: risk, file } = await withCdmFile(scope, planRisks, params.risk_id ?? '', principal);
  const plan = await readInScope(scope, constructionPhasePlans, String(risk.rels.construction_phase_plan));
  await deleteRisk(scope, plan, risk, file, callerOf(principal));
  return new Reply(204, undefined);
});
