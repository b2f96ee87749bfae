import { jsonApiHandler } from '#shared/http/json-api-handler';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { constructionPhasePlans, proposedChanges } from '#shared/resources/cdm/definitions';
import { decideChange } from '#shared/resources/cdm/proposed-changes';
import { readInScope, resourceResponse } from '#shared/resources/single';

/** PATCH /v3/construction-phase-plan-proposed-changes/{id}: the other party accepts (applies it) or rejects. */
export const handler = jsonApiHandler('decideProposedChange', async (request) => {
  const { scope, params, principal, body } = request;
  const { record: change, file } = await withCdmFile(
    scope,
    proposedChanges,
    params.proposed_change_id ?? '',
    principal,
  );
  const plan = await readInScope(scope, constructionPhasePlans, String(change.rels.construction_phase_plan));
  return resourceResponse(
    request,
    proposedChanges,
    await decideChange(scope, change, plan, file, body, callerOf(principal)),
  );
});
