import { cdmHandler } from '#shared/resources/cdm/cdm-handler';
import { constructionPhasePlans, proposedChanges } from '#shared/resources/cdm/definitions';
import { proposeChange } from '#shared/resources/cdm/proposed-changes';

export { proposeChangeDocument as requestBody } from '#shared/resources/cdm/proposed-changes';

/** POST /v3/construction-phase-plans/{construction_phase_plan_id}/proposed-changes (spec): 200 with the pending change; only after handover, only by the Client or the Principal Contractor. */
export const handler = cdmHandler('createProposedChange', {
  path: [constructionPhasePlans, 'construction_phase_plan_id'],
  write: proposeChange,
  answer: proposedChanges,
});
