import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { constructionPhasePlans, planRisks } from '#shared/resources/cdm/definitions';
import { createRisk } from '#shared/resources/cdm/plans';
import { resourceResponse } from '#shared/resources/single';

/** POST /v3/construction-phase-plans/{id}/risks: a control measure against a hazard of the scheme's PCI. */
export const handler = jsonApiHandler('createPlanRisk', async (request) => {
  const { scope, params, principal, body } = request;
  const { record: plan, file } = await withCdmFile(
    scope,
    constructionPhasePlans,
    params.construction_phase_plan_id ?? '',
    principal,
  );
  const risk = await createRisk(scope, plan, file, body, callerOf(principal));
  return new Reply(201, await resourceResponse(request, planRisks, risk), {
    Location: `${request.baseUrl}${planRisks.selfPath(risk)}`,
  });
});
