import { cdmHandler } from '../cdm-handler';
import { constructionPhasePlans } from '../construction-phase-plans/definition';
import { planRisks } from '../definitions';
import { createRisk, riskDocuments } from '../plans';

/** POST /v3/construction-phase-plans/{id}/risks: a control measure against a hazard of the scheme's PCI. */
export const handler = cdmHandler('createPlanRisk', {
  path: [constructionPhasePlans, 'construction_phase_plan_id'],
  write: createRisk,
  answer: planRisks,
  created: true,
});

export const requestBody = riskDocuments.create;
