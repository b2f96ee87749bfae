import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { updateAward } from './awards';
import { qualificationAwards } from './definitions';

export { updateAwardDocument as requestBody } from './awards';

/** PATCH /v3/qualification-awards/{id}: a pending award's dates, number and evidence; any award's notes. */
export const handler = jsonApiHandler('updateQualificationAward', async (request) => {
  const award = await readInScope(request.scope, qualificationAwards, request.params.qualification_award_id);
  return resourceResponse(
    request,
    qualificationAwards,
    await updateAward(request.scope, award, request.body),
  );
});
