/**
 * Actions' writes. A create takes the type's defaults (priority, a due time after its due period), checks
 * its custom field values against the type's schema (400 at each refused value), counts itself on the type
 * and, with a `producer.key`, claims that key in the same transaction: a create repeating a key answers the
 * action the key made (200, `meta.deduplicated: true`), also when two arrive together (the claim refuses the
 * second, which then reads the first). Status, assignee and claimant change only by the moves.
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { batchGetInScope, getItem } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { WriteRefused } from '#shared/data/transaction';
import {
  byPrincipal,
  changedRecord,
  commitChecked,
  existenceChecks,
  newRecord,
  refusedAsRace,
  relationshipSchema,
  storedRelationships,
} from '#shared/engine/record-writes';
import { freeText, line, requiredLine, timestamp } from '#shared/jsonapi/attribute-types';
import { ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { ACTIONS_OF_TYPE, actionTypes } from './action-types';
import { actions, producerClaimKey } from './definitions';
import { dueAfter, PRIORITIES, PRODUCER_KINDS } from './rules/actions';
import { valueProblems } from './rules/custom-field-values';

const relationship = (name: string) => relationshipSchema(actions, name);
const CUSTOM_FIELDS = '/data/attributes/custom_fields';

const editable = {
  title: requiredLine(255),
  description: freeText(30_000),
  priority: z.enum(PRIORITIES),
  due_at: timestamp.nullable(),
  custom_fields: z.record(z.string(), z.union([z.string().max(30_000), z.number(), z.boolean()])),
  source_pointer: line(500).nullable(),
};

export const createActionDocument = z.strictObject({
  data: z.strictObject({
    type: z.literal('actions'),
    attributes: z.strictObject({
      ...editable,
      description: editable.description.optional(),
      priority: editable.priority.optional(),
      due_at: editable.due_at.optional(),
      custom_fields: editable.custom_fields.optional(),
      source_pointer: editable.source_pointer.optional(),
      producer: z
        .strictObject({ kind: z.enum(PRODUCER_KINDS), key: line(200).optional() })
        .optional()
        .describe('What raised it; a key makes the create idempotent: a repeat answers the action it made.'),
    }),
    relationships: z.strictObject({
      action_type: relationship('action_type'),
      assignee: relationship('assignee').optional(),
      subject: relationship('subject').optional(),
      source: relationship('source').optional(),
      watchers: relationship('watchers').optional(),
    }),
  }),
});

export const updateActionDocument = z.strictObject({
  data: z.strictObject({
    type: z.literal('actions'),
    id: z.uuid(),
    attributes: z.strictObject(editable).partial().optional(),
    relationships: z
      .strictObject({
        subject: relationship('subject').optional(),
        source: relationship('source').optional(),
        watchers: relationship('watchers').optional(),
      })
      .optional(),
  }),
});

/** The values refused by the type's schema: a 400 naming each at its pointer. */
const checkValues = (type: StoredResource, values: Record<string, unknown>) => {
  const problems = valueProblems(
    type.attributes.custom_fields as Record<string, unknown> | null | undefined,
    values,
    CUSTOM_FIELDS,
  );
  if (problems.length === 0) return;
  const errors = problems.map(
    (p) => new ValidationError({ detail: p.detail, source: { pointer: p.pointer } }),
  );
  throw new ValidationError({ ...errors[0]?.toErrorObject(), problems: errors });
};

const typeOf = async (scope: Scope, orgId: string, id: unknown) => {
  const [type] = await batchGetInScope(scope, [actionTypes.keyOf(orgId, String(id))]);
  if (!type)
    throw new ValidationError({
      detail: 'No such action type in this organisation.',
      source: { pointer: '/data/relationships/action_type/data' },
    });
  return type;
};

/** What a create answers: the action, and whether a repeated producer key found it made already. */
export interface Created {
  action: StoredResource;
  deduplicated: boolean;
}

/** The action a producer key made, or null: its claim, then the action it names. */
const madeBy = async (scope: Scope, orgId: string, key: string): Promise<StoredResource | null> => {
  const claim = await getItem<{ holder_id?: string }>(producerClaimKey(orgId, key), true);
  if (!claim?.holder_id) return null;
  const [action] = await batchGetInScope(scope, [actions.keyOf(orgId, claim.holder_id)]);
  return action ?? null;
};

export const createAction = async (
  scope: Scope,
  orgId: string,
  body: unknown,
  principal: Principal | null,
  now = new Date(),
): Promise<Created> => {
  const { data } = parseDocument(createActionDocument, body);
  const { producer = { kind: 'manual' as const }, ...attributes } = data.attributes;
  const key = producer.key ?? null;
  if (key !== null) {
    const existing = await madeBy(scope, orgId, key);
    if (existing) return { action: existing, deduplicated: true };
  }
  const rels = storedRelationships(data.relationships, actions);
  const type = await typeOf(scope, orgId, rels.action_type);
  const values = attributes.custom_fields ?? {};
  checkValues(type, values);
  const period = type.attributes.due_period;
  const action = newRecord(
    actions,
    orgId,
    {
      attributes: {
        title: attributes.title,
        description: attributes.description ?? '',
        status: 'open',
        priority: attributes.priority ?? type.attributes.default_priority ?? 'none',
        due_at:
          attributes.due_at !== undefined
            ? attributes.due_at
            : typeof period === 'string'
              ? dueAfter(now, period)
              : null,
        custom_fields: values,
        reason: null,
        producer: { kind: producer.kind, key },
        source_pointer: attributes.source_pointer ?? null,
        completed_at: null,
        verified_at: null,
      },
      rels: {
        assignee: null,
        subject: null,
        source: null,
        watchers: [],
        claimed_by: null,
        completed_by: null,
        verified_by: null,
        ...rels,
        ...byPrincipal('created_by', principal),
      },
      meta: producer.kind === 'manual' ? {} : { produced_by: { kind: producer.kind, key } },
    },
    now,
  );
  const claim = key === null ? [] : [{ claim: { ...producerClaimKey(orgId, key), holder_id: action.id } }];
  const named = {
    assignee: rels.assignee ?? null,
    subject: rels.subject ?? null,
    source: rels.source ?? null,
    watchers: rels.watchers ?? [],
  };
  const refused = async (error: WriteRefused) => {
    // Two creates with one key at once: the claim refused this one; the other's action is the answer.
    if (key !== null && error.op === 1) {
      const made = await madeBy(scope, orgId, key);
      if (made) return { action: made, deduplicated: true };
    }
    return refusedAsRace(error);
  };
  try {
    await commitChecked(
      scope,
      [{ create: action }, ...claim],
      [
        {
          op: { keep: { key: actionTypes.keyOf(orgId, type.id), add: { [ACTIONS_OF_TYPE]: 1 } } },
          pointer: '/data/relationships/action_type/data',
        },
        ...existenceChecks(actions, orgId, named),
      ],
      (error) => {
        throw error;
      },
    );
  } catch (error) {
    if (error instanceof WriteRefused) return refused(error);
    throw error;
  }
  return { action, deduplicated: false };
};

/** A PATCH: its attributes, subject, source and watchers; custom field values checked against the type again. */
export const updateAction = async (scope: Scope, action: StoredResource, body: unknown, now = new Date()) => {
  const { data } = parseDocument(updateActionDocument, body);
  assertSameId(data.id, action.id);
  const attributes = data.attributes ?? {};
  if (attributes.custom_fields !== undefined)
    checkValues(await typeOf(scope, action.org_id, action.rels.action_type), attributes.custom_fields);
  const rels = storedRelationships(data.relationships, actions);
  const next = changedRecord(actions, action, { attributes, rels }, now);
  await commitChecked(scope, [{ replace: next, was: action }], existenceChecks(actions, action.org_id, rels));
  return next;
};
