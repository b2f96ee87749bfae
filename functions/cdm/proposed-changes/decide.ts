import { cdmHandler } from '../cdm-handler';
import { proposedChanges } from '../definitions';
import { decideChange } from './writes';

export { changeDecisionDocument as requestBody } from './writes';

/** PATCH /v3/construction-phase-plan-proposed-changes/{id}: the other party accepts (applies it) or rejects. */
export const handler = cdmHandler('decideProposedChange', {
  path: [proposedChanges, 'proposed_change_id'],
  write: decideChange,
});
