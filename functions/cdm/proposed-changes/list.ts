import { listChildren } from '#shared/engine/children';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { constructionPhasePlans } from '../construction-phase-plans/definition';
import { proposedChanges } from './definition';

/** GET /v3/construction-phase-plans/{id}/proposed-changes: `filter[status]=pending|accepted|rejected`. */
export const handler = jsonApiHandler('listProposedChanges', (request) =>
  listChildren(request, constructionPhasePlans, request.params.construction_phase_plan_id, proposedChanges),
);
