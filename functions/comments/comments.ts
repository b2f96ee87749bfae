/**
 * Writing a comment. A comment names its subject (`attributes.subject: {type, id}`, like an audit event)
 * among the commentable types below, and is filed on `gsi1` under it so a record's comments are one Query.
 * Deleting one is deletion.ts (it reads neither zod nor the commentable types' declarations).
 */

import * as z from 'zod';
import { actions } from '#functions/actions/definitions';
import { briefings } from '#functions/agents/definitions';
import { equipmentItems, vehicleInventoryChecks, vehicles } from '#functions/assets/definitions';
import { constructionPhasePlans } from '#functions/cdm/construction-phase-plans/definition';
import { siteHazards } from '#functions/cdm/definitions';
import { proposedChanges } from '#functions/cdm/proposed-changes/definition';
import { customerContacts, customerInteractions } from '#functions/customers/definitions';
import { documents, folders } from '#functions/documents/definitions';
import { operations, schemes, workOrders } from '#functions/projects/definitions';
import { permits } from '#functions/street-works/definitions';
import { fileUnder } from '#shared/data/children';
import { defineWrite } from '#shared/engine/define-write';
import { byPrincipal, newRecord } from '#shared/engine/record-writes';
import { requiredText } from '#shared/jsonapi/attribute-types';
import { comments } from './definitions';
import { commentsIndexKey } from './subject-index';

/**
 * The declarations of the types a comment's subject may name: the write holds them, so the route that
 * writes a comment loads them in every bundle, where a lookup by name (`declaredType`) found only what the
 * function's entry had loaded (in AWS, none of these: a 500), and a read of comments loads none of them.
 */
const commentable = [
  documents,
  folders,
  schemes,
  workOrders,
  operations,
  siteHazards,
  constructionPhasePlans,
  proposedChanges,
  permits,
  customerContacts,
  customerInteractions,
  equipmentItems,
  vehicles,
  vehicleInventoryChecks,
  briefings,
  actions,
] as const;

type Commentable = (typeof commentable)[number];
export const commentableTypes = commentable.map(({ type }) => type) as [
  Commentable['type'],
  ...Commentable['type'][],
];
const subjects = Object.fromEntries(commentable.map((definition) => [definition.type, definition])) as Record<
  Commentable['type'],
  Commentable
>;

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
    const record = newRecord(
      comments,
      orgId,
      { attributes: data.attributes, rels: byPrincipal('author', principal) },
      now,
    );
    return {
      comment: fileUnder(record, commentsIndexKey(subject.id)),
      subject: subjects[subject.type].keyOf(orgId, subject.id),
    };
  },
  ops: (_request, { comment, subject }) => ({
    ops: [{ create: comment }],
    checks: [{ op: { check: subject }, pointer: '/data/attributes/subject' }],
  }),
  answer: ({ comment }) => comment,
});
