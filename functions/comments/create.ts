import { createHandler } from '#shared/engine/crud-handlers';
import { createComment } from './comments';
import { comments } from './definitions';

export { createCommentDocument as requestBody } from './comments';

/** POST /v3/orgs/{org_id}/comments: a comment on one commentable record of the organisation; 201. */
export const handler = createHandler('createComment', {
  definition: comments,
  create: (scope, orgId, body, principal) =>
    createComment({ scope, orgId, principal: principal ?? null }, body),
});
