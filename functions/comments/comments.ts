/**
 * Comments on records. A comment names its subject (`attributes.subject: {type, id}`, like an audit
 * event) among the commentable types below, and is filed on `gsi1` under it so a record's comments are
 * one Query. Deleting is permanent and allowed to the author or a holder of `comments:moderate`.
 */

import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { fileUnder } from '#shared/data/children';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { defineWrite } from '#shared/engine/define-write';
import { byPrincipal, deleteRecord, newRecord } from '#shared/engine/record-writes';
import { declaredType } from '#shared/engine/resource-definition';
import { requiredText } from '#shared/jsonapi/attribute-types';
import { ForbiddenError } from '#shared/jsonapi/errors';
import { comments } from './definitions';
import { commentsIndexKey } from './subject-index';

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
