import { getHandler } from '#shared/http/crud-handlers';
import { constructionPhasePlans } from '#shared/resources/cdm/definitions';

/** GET /v3/construction-phase-plans/{construction_phase_plan_id} */
export const handler = getHandler(
  'getConstructionPhasePlan',
  constructionPhasePlans,
  'construction_phase_plan_id',
);
