import { cdmHandler } from '#shared/resources/cdm/cdm-handler';
import { constructionPhasePlans, planRisks } from '#shared/resources/cdm/definitions';
import { createRisk, riskDocuments } from '#shared/resources/cdm/plans';

/** POST /v3/construction-phase-plans/{id}/risks: a control measure against a hazard of the scheme's PCI. */
export const handler = cdmHandler('createPlanRisk', {
  path: [constructionPhasePlans, 'construction_phase_plan_id'],
  write: createRisk,
  answer: planRisks,
  created: true,
});

export const requestBody = riskDocuments.create;
