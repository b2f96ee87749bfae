/**
 * Comments on records. A comment names its subject (`attributes.subject: {type, id}`, like an audit
 * event) among the commentable types below, and is filed on `gsi1` under it so a record's comments are
 * one Query. Deleting is permanent and allowed to the author or a holder of `comments:moderate`.
 */

import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { partitionFrom } from '#shared/data/access-patterns';
import { fileUnder, queryFiled } from '#shared/data/children';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { type CollectionRequest, listResources, readCollectionPage } from '#shared/engine/collection';
import { defineWrite } from '#shared/engine/define-write';
import { byPrincipal, deleteRecord, newRecord } from '#shared/engine/record-writes';
import { declaredType } from '#shared/engine/resource-definition';
import { requiredText } from '#shared/jsonapi/attribute-types';
import { ForbiddenError } from '#shared/jsonapi/errors';
import { comments } from './definitions';

export const commentableTypes = [
  'documents',
  'folders',
  'schemes',
  'work-orders',
  'operations',
  'site-hazards',
  'construction-phase-plans',
  'construction-phase-plan-proposed-changes',
  'permits',
  'customer-contacts',
  'customer-interactions',
  'equipment-items',
  'vehicles',
  'vehicle-inventory-checks',
  'briefings',
] as const;

/** The `gsi1` partition a record's comments are filed and counted under (`filter-subject`). */
export const commentsIndexKey = (subjectId: string) =>
  partitionFrom(comments.keys['filter-subject'], { 'attributes.subject.id': subjectId });

/**
 * A record's comments in the scope (`filter[subject_id]`, which the declaration requires), from its `gsi1`
 * partition, where each is filed by id and counted (data/children.ts). In creation order and filtered by
 * nothing but the subject, the page is read and the total is the count; otherwise the engine reads the
 * subject's key range (a time window a range of ids in it: indexed-filters.ts), never the organisation's.
 */
export const listCommentsOn = (request: CollectionRequest) =>
  listResources(request, comments, (query) => {
    const subject = query.filters.find((f) => f.field === 'subject_id');
    if (subject?.op !== 'eq') throw new Error('the comments collection is declared to require subject_id');
    return query.filters.length === 1 && query.sort.field === 'created_at'
      ? queryFiled(request.scope, commentsIndexKey(String(subject.value)), query)
      : readCollectionPage(request.scope, comments, query);
  });

export const createCommentDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('comments'),
      attributes: z.strictObject({
        body: requiredText(10_000),
        subject: z.strictObject({ type: z.enum(commentableTypes), id: z.uuid() }),
      }),
    }),
  }),
);

/** No reads: the subject's existence is a check in the comment's own transaction (400 at the subject). */
export const createComment = defineWrite({
  document: createCommentDocument,
  decide: ({ orgId, principal, now }, { data }) => {
    const { subject } = data.attributes;
    const target = declaredType(subject.type);
    if (!target) throw new Error(`commentable type ${subject.type} is not registered`);
    const record = newRecord(
      comments,
      orgId,
      { attributes: data.attributes, rels: byPrincipal('author', principal) },
      now,
    );
    return {
      comment: fileUnder(record, commentsIndexKey(subject.id)),
      subject: target.keyOf(orgId, subject.id),
    };
  },
  ops: (_request, { comment, subject }) => ({
    ops: [{ create: comment }],
    checks: [{ op: { check: subject }, pointer: '/data/attributes/subject' }],
  }),
  answer: ({ comment }) => comment,
});

/** Permanent; the author's own, or anyone's with `comments:moderate` in the comment's organisation. */
export const deleteComment = async (scope: Scope, comment: StoredResource, principal: Principal | null) => {
  const author = comment.rels.author ?? comment.rels.author_service_account;
  const moderator = principal?.permissions.get(comment.org_id)?.has('comments:moderate') ?? false;
  if (author !== principal?.id && !moderator) {
    throw new ForbiddenError('Only the comment’s author or a holder of comments:moderate may delete it.');
  }
  await deleteRecord(scope, comment);
};
