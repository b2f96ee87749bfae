import { cdmHandler } from '#shared/resources/cdm/cdm-handler';
import { proposedChanges } from '#shared/resources/cdm/definitions';
import { decideChange } from '#shared/resources/cdm/proposed-changes';

export { changeDecisionDocument as requestBody } from '#shared/resources/cdm/proposed-changes';

/** PATCH /v3/construction-phase-plan-proposed-changes/{id}: the other party accepts (applies it) or rejects. */
export const handler = cdmHandler('decideProposedChange', {
  path: [proposedChanges, 'proposed_change_id'],
  write: decideChange,
});
