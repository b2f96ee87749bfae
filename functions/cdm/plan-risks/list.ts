import { listChildren } from '#shared/engine/children';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { constructionPhasePlans } from '../construction-phase-plans/definition';
import { planRisks } from '../definitions';

/** GET /v3/construction-phase-plans/{id}/risks */
export const handler = jsonApiHandler('listPlanRisks', (request) =>
  listChildren(
    request,
    constructionPhasePlans,
    request.params.construction_phase_plan_id,
    planRisks,
    'risks',
  ),
);
