import { cdmHandler } from '#shared/resources/cdm/cdm-handler';
import { constructionPhasePlans } from '#shared/resources/cdm/definitions';
import { handOver } from '#shared/resources/cdm/plans';

/** POST /v3/construction-phase-plans/{id}/handover: the Principal Contractor hands over a complete plan. */
export const handler = cdmHandler('handOverConstructionPhasePlan', {
  path: [constructionPhasePlans, 'construction_phase_plan_id'],
  write: handOver,
});
