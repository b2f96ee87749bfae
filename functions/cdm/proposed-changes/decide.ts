import { readInScope, resourceResponse } from '#shared/engine/single';
import { moveRecord } from '#shared/engine/transition';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { decisionMove } from '../pre-construction';
import { proposedChanges } from './definition';
import { changeDecisionDocument } from './writes';

export { changeDecisionDocument as requestBody } from './writes';

/**
 * PATCH /v3/construction-phase-plan-proposed-changes/{id}: the documented alias of POST …/accept and
 * …/reject (the declared machine's moves: who may, four eyes, the change still applying, its event).
 */
export const handler = jsonApiHandler('decideProposedChange', async (request) => {
  const change = await readInScope(request.scope, proposedChanges, request.params.proposed_change_id ?? '');
  const { verb, body } = decisionMove(changeDecisionDocument, change, request.body);
  const moved = await moveRecord(request.scope, proposedChanges, change, verb, {
    principal: request.principal,
    body,
  });
  return resourceResponse(request, proposedChanges, moved);
});
