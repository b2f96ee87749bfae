import { readInScope, resourceResponse } from '#shared/engine/single';
import { moveRecord } from '#shared/engine/transition';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { decisionMove, hazardDecisionDocument } from '../pre-construction';
import { hazardProposals } from './definition';

export { hazardDecisionDocument as requestBody } from '../pre-construction';

/**
 * PATCH /v3/hazard-proposals/{id}: the documented alias of POST …/accept and …/reject (the declared
 * machine's moves: the Client decides, once; a rejection gives its reason).
 */
export const handler = jsonApiHandler('decideHazardProposal', async (request) => {
  const proposal = await readInScope(request.scope, hazardProposals, request.params.hazard_proposal_id ?? '');
  const { verb, body } = decisionMove(hazardDecisionDocument, proposal, request.body);
  const moved = await moveRecord(request.scope, hazardProposals, proposal, verb, {
    principal: request.principal,
    body,
  });
  return resourceResponse(request, hazardProposals, moved);
});
