/**
 * A PATCH of a decision's `status` (a hazard proposal's, a proposed change's): the documented alias of its
 * declared machine's POST …/accept and …/reject, so it is refused and answered as the move is (who may,
 * four eyes, the record's state, its event); a rejection gives its reason.
 */
import type { ResourceDefinition } from '#shared/engine/resource-definition';
import { readInScope, resourceResponse } from '#shared/engine/single';
import { moveRecord } from '#shared/engine/transition';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { decisionMove } from './pre-construction';

export const decisionAlias = (
  routeId: 'decideHazardProposal' | 'decideProposedChange',
  definition: ResourceDefinition,
  document: Parameters<typeof decisionMove>[0],
) =>
  jsonApiHandler(routeId, async (request) => {
    // The route's one path parameter: the record's id.
    const id = Object.values(request.params)[0] ?? '';
    const record = await readInScope(request.scope, definition, id);
    const { verb, body } = decisionMove(document, record, request.body);
    const moved = await moveRecord(request.scope, definition, record, verb, {
      principal: request.principal,
      body,
    });
    return resourceResponse(request, definition, moved);
  });
