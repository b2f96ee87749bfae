import { cdmHandler } from '#shared/resources/cdm/cdm-handler';
import { constructionPhasePlans } from '#shared/resources/cdm/definitions';
import { createPlan, planDocuments } from '#shared/resources/cdm/plans';
import { schemes } from '#shared/resources/projects/definitions';

/** POST /v3/orgs/{org_id}/projects/schemes/{scheme_id}/construction-phase-plan: the Principal Contractor's plan. */
export const handler = cdmHandler('createConstructionPhasePlan', {
  path: [schemes, 'scheme_id'],
  write: createPlan,
  answer: constructionPhasePlans,
  created: true,
});

export const requestBody = planDocuments.create;
