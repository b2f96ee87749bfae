import { applyInMemory } from '#shared/data/in-memory-collection';
import { readIndex } from '#shared/data/repository';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listResources } from '#shared/resources/collection';
import { commentsIndexKey, requireSubject } from '#shared/resources/comments/comments';
import { comments } from '#shared/resources/comments/definitions';

/** GET /v3/orgs/{org_id}/comments?filter[subject_id]=…: one record's comments, oldest first. */
export const handler = jsonApiHandler('listComments', (request) => {
  const subjectId = requireSubject(request.query);
  return listResources(request, comments, async (query) =>
    applyInMemory(await readIndex(request.scope, commentsIndexKey(subjectId)), query),
  );
});
