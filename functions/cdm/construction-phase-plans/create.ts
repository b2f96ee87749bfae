import { schemes } from '#functions/projects/definitions';
import { cdmHandler } from '../cdm-handler';
import { createPlan, planDocuments } from '../plans';
import { constructionPhasePlans } from './definition';

/** POST /v3/orgs/{org_id}/projects/schemes/{scheme_id}/construction-phase-plan: the Principal Contractor's plan. */
export const handler = cdmHandler('createConstructionPhasePlan', {
  path: [schemes, 'scheme_id'],
  write: createPlan,
  answer: constructionPhasePlans,
  created: true,
});

export const requestBody = planDocuments.create;
