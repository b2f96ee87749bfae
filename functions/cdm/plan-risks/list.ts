import { jsonApiHandler } from '#shared/http/json-api-handler';
import { constructionPhasePlans, planRisks } from '#shared/resources/cdm/definitions';
import { listChildren } from '#shared/resources/children';

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
