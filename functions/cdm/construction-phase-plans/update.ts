import { cdmHandler } from '../cdm-handler';
import { planDocuments, updatePlan } from '../plans';
import { constructionPhasePlans } from './definition';

/** PATCH /v3/construction-phase-plans/{id}: writes sections before handover, each by its owning role. */
export const handler = cdmHandler('updateConstructionPhasePlan', {
  path: [constructionPhasePlans, 'construction_phase_plan_id'],
  write: updatePlan,
});

export const requestBody = planDocuments.update;
