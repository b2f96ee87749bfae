import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { recordAhead } from '#shared/http/middlewares/authorisation';
import { decideAward } from './awards';
import { qualificationAwards } from './definitions';
import type { AwardAction } from './rules/awards';

/**
 * POST /v3/qualification-awards/{id}/approve, /reject, /revoke: the award moves (409 from a status where
 * the action is not open); the award is read with the caller's credentials.
 */
export const decisionHandler = (
  route: `${'approve' | 'reject' | 'revoke'}QualificationAward`,
  action: AwardAction,
) =>
  jsonApiHandler(
    route,
    async (request) => {
      const { qualification_award_id: id } = request.params as { qualification_award_id: string };
      const award = await readInScope(request.scope, qualificationAwards, id);
      const decided = await decideAward(request.scope, award, action, request.principal);
      return resourceResponse(request, qualificationAwards, decided);
    },
    recordAhead(qualificationAwards, 'qualification_award_id'),
  );
