import { listChildren } from '#shared/engine/children';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { planVersions } from '../definitions';
import { constructionPhasePlans } from './definition';

/** GET /v3/construction-phase-plans/{id}/versions: the plan's history, one entry per version. */
export const handler = jsonApiHandler('listConstructionPhasePlanVersions', (request) =>
  listChildren(request, constructionPhasePlans, request.params.construction_phase_plan_id, planVersions),
);
