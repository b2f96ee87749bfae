import { cdmHandler } from '../cdm-handler';
import { constructionPhasePlans } from '../definitions';
import { handOver } from '../plans';

/** POST /v3/construction-phase-plans/{id}/handover: the Principal Contractor hands over a complete plan. */
export const handler = cdmHandler('handOverConstructionPhasePlan', {
  path: [constructionPhasePlans, 'construction_phase_plan_id'],
  write: handOver,
});
