import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { comments } from './definitions';
import { deleteComment } from './deletion';

/** DELETE /v3/comments/{comment_id} (spec): permanent; 204; 404 for an unknown or foreign comment. */
export const handler = jsonApiHandler('deleteComment', async (request) => {
  const comment = await readInScope(request.scope, comments, request.params.comment_id);
  await deleteComment(request.scope, comment, request.principal);
  return new Reply(204, undefined);
});
