/** Deleting a comment: permanent, and allowed to its author or a holder of `comments:moderate`. */
import type { Principal } from '#shared/auth/principal';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { deleteRecord } from '#shared/engine/record-writes';
import { ForbiddenError } from '#shared/jsonapi/errors';

/** Permanent; the author's own, or anyone's with `comments:moderate` in the comment's organisation. */
export const deleteComment = async (scope: Scope, comment: StoredResource, principal: Principal | null) => {
  const author = comment.rels.author ?? comment.rels.author_service_account;
  const moderator = principal?.permissions.get(comment.org_id)?.has('comments:moderate') ?? false;
  if (author !== principal?.id && !moderator) {
    throw new ForbiddenError('Only the comment’s author or a holder of comments:moderate may delete it.');
  }
  await deleteRecord(scope, comment);
};
