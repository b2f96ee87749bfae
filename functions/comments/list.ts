import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listInMemory } from '#shared/resources/collection';
import { commentsOn, requireSubject } from '#shared/resources/comments/comments';
import { comments } from '#shared/resources/comments/definitions';

/** GET /v3/orgs/{org_id}/comments?filter[subject_id]=…: one record's comments, oldest first. */
export const handler = jsonApiHandler('listComments', (request) => {
  const subjectId = requireSubject(request.query);
  return listInMemory(request, comments, () => commentsOn(request.scope, subjectId));
});
