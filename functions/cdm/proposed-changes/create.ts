import { cdmHandler } from '../cdm-handler';
import { constructionPhasePlans } from '../construction-phase-plans/definition';
import { proposedChanges } from './definition';
import { proposeChange } from './writes';

export { proposeChangeDocument as requestBody } from './writes';

/** POST /v3/construction-phase-plans/{construction_phase_plan_id}/proposed-changes (spec): 200 with the pending change; only after handover, only by the Client or the Principal Contractor. */
export const handler = cdmHandler('createProposedChange', {
  path: [constructionPhasePlans, 'construction_phase_plan_id'],
  write: proposeChange,
  answer: proposedChanges,
});
