import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { deleteAward } from './awards';
import { qualificationAwards } from './definitions';

/** DELETE /v3/qualification-awards/{id}: an award recorded by mistake (pending or rejected); 409 otherwise. */
export const handler = jsonApiHandler('deleteQualificationAward', async (request) => {
  const award = await readInScope(request.scope, qualificationAwards, request.params.qualification_award_id);
  await deleteAward(request.scope, award);
  return new Reply(204, undefined);
});
