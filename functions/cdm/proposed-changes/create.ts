import { jsonApiHandler } from '#shared/http/json-api-handler';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { constructionPhasePlans, proposedChanges } from '#shared/resources/cdm/definitions';
import { proposeChange } from '#shared/resources/cdm/proposed-changes';
import { resourceResponse } from '#shared/resources/single';

/**
 * POST /v3/construction-phase-plans/{construction_phase_plan_id}/proposed-changes (spec): 200 with the
 * pending change; only after handover, only by the Client or the Principal Contractor.
 */
export const handler = jsonApiHandler('createProposedChange', async (request) => {
  const { scope, params, principal, body } = request;
  const { record: plan, file } = await withCdmFile(
    scope,
    constructionPhasePlans,
    params.construction_phase_plan_id ?? '',
    principal,
  );
  return resourceResponse(
    request,
    proposedChanges,
    await proposeChange(scope, plan, file, body, callerOf(principal)),
  );
});
