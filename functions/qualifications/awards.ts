/**
 * Awards' writes. An award is recorded pending approval; its moves (approve, reject, revoke) are its
 * declared state machine's (`definitions.ts`, `award-moves.ts`); a valid award expires on its date, run by
 * the schedule here. Each award is also kept, as one entry, on its person's record (`award#<id>`), so a
 * person's competence is read with the person: an evaluation of 100 people is one BatchGetItem. An approved
 * award with an expiry has an entry due (data/due-work.ts) for its warnings, 30, 7 and 0 days before.
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { type DueEntry, dueEntryOp, removeDueEntryOp } from '#shared/data/due-work';
import { batchGetInScope, getItem } from '#shared/data/repository';
import { type Scope, scopeOf, systemActor } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import {
  byPrincipal,
  type Check,
  changedRecord,
  commitChecked,
  createRecord,
  newRecord,
  relationshipSchema,
  replaceRecord,
  storedRelationships,
} from '#shared/engine/record-writes';
import { calendarDate, freeText, line } from '#shared/jsonapi/attribute-types';
import { ConflictError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { entryMoved, onPerson, scheduled, warningEntry } from './award-moves';
import { AWARDS_OF_TYPE, qualificationAwards, qualificationTypes } from './definitions';
import { expiryAfter } from './rules/awards';

const typeCount = (award: StoredResource, by: number): Check => ({
  op: {
    keep: {
      key: qualificationTypes.keyOf(award.org_id, String(award.rels.qualification_type)),
      add: { [AWARDS_OF_TYPE]: by },
    },
  },
  pointer: '/data/relationships/qualification_type/data',
});

const relationship = (name: string) => relationshipSchema(qualificationAwards, name);

const awardAttributes = {
  issued_at: calendarDate(),
  expires_at: calendarDate().nullable(),
  number: line(100).nullable(),
  notes: freeText(2000).nullable(),
};

export const createAwardDocument = z.strictObject({
  data: z.strictObject({
    type: z.literal('qualification-awards'),
    attributes: z.strictObject({
      ...awardAttributes,
      expires_at: awardAttributes.expires_at.optional(),
      number: awardAttributes.number.optional(),
      notes: awardAttributes.notes.optional(),
    }),
    relationships: z.strictObject({
      person: relationship('person'),
      qualification_type: relationship('qualification_type'),
      evidence: relationship('evidence').optional(),
    }),
  }),
});

export const updateAwardDocument = z.strictObject({
  data: z.strictObject({
    type: z.literal('qualification-awards'),
    id: z.uuid(),
    attributes: z.strictObject(awardAttributes).partial().optional(),
    relationships: z.strictObject({ evidence: relationship('evidence').optional() }).optional(),
  }),
});

const typeOf = async (scope: Scope, orgId: string, id: unknown) => {
  const [type] = await batchGetInScope(scope, [qualificationTypes.keyOf(orgId, String(id))]);
  if (!type)
    throw new ValidationError({
      detail: 'No such qualification type in this organisation.',
      source: { pointer: '/data/relationships/qualification_type/data' },
    });
  return type;
};

/**
 * The award's dates as its type rules them: an expiring type's award expires (on the date given, else
 * after the type's validity period); a type that does not expire gives no expiry date.
 */
const datesFor = (type: StoredResource, issuedAt: string, expiresAt: string | null | undefined) => {
  const pointer = '/data/attributes/expires_at';
  if (!type.attributes.has_expiry) {
    if (expiresAt)
      throw new ValidationError({ detail: 'This qualification type does not expire.', source: { pointer } });
    return { issued_at: issuedAt, expires_at: null };
  }
  const period = type.attributes.validity_period;
  const expires = expiresAt ?? (typeof period === 'string' ? expiryAfter(issuedAt, period) : null);
  if (!expires)
    throw new ValidationError({
      detail: 'This qualification type expires and names no validity period: give expires_at.',
      source: { pointer },
    });
  if (expires <= issuedAt)
    throw new ValidationError({ detail: 'expires_at must be after issued_at.', source: { pointer } });
  return { issued_at: issuedAt, expires_at: expires };
};

/** Records an award, pending approval: kept on its person and counted on its type. */
export const createAward = async (
  scope: Scope,
  orgId: string,
  body: unknown,
  principal: Principal | null,
  now = new Date(),
) => {
  const { data } = parseDocument(createAwardDocument, body);
  const rels = storedRelationships(data.relationships);
  const type = await typeOf(scope, orgId, rels.qualification_type);
  const { issued_at, expires_at, number = null, notes = null } = data.attributes;
  const award = newRecord(
    qualificationAwards,
    orgId,
    {
      attributes: { ...datesFor(type, issued_at, expires_at), number, notes, status: 'pending_approval' },
      rels: {
        ...rels,
        ...byPrincipal('verified_by', null, 'verified_by'),
        ...byPrincipal('created_by', principal),
      },
    },
    now,
  );
  return createRecord(scope, qualificationAwards, award, [], undefined, { evidence: rels.evidence ?? null }, [
    onPerson(award),
    typeCount(award, 1),
  ]);
};

/** Changes a pending award's dates, number and evidence; once decided, only its notes and evidence. */
export const updateAward = async (scope: Scope, award: StoredResource, body: unknown, now = new Date()) => {
  const { data } = parseDocument(updateAwardDocument, body);
  assertSameId(data.id, award.id);
  const { notes, ...decided } = data.attributes ?? {};
  const changed = Object.keys(decided);
  if (changed.length > 0 && award.attributes.status !== 'pending_approval')
    throw new ConflictError(
      `An award ${award.attributes.status} keeps its ${changed.join(', ')}: record a new award (a renewal) instead.`,
    );
  const rels = storedRelationships(data.relationships);
  let attributes: Record<string, unknown> = { ...decided, ...(notes !== undefined && { notes }) };
  if (decided.issued_at !== undefined || decided.expires_at !== undefined) {
    const type = await typeOf(scope, award.org_id, award.rels.qualification_type);
    const issued = decided.issued_at ?? String(award.attributes.issued_at);
    // A new issue date moves a computed expiry with it, unless an expiry is given.
    const expires =
      decided.expires_at !== undefined
        ? decided.expires_at
        : decided.issued_at
          ? undefined
          : (award.attributes.expires_at as string | null);
    attributes = { ...attributes, ...datesFor(type, issued, expires) };
  }
  const next = changedRecord(qualificationAwards, award, { attributes, rels }, now);
  // The person's entry moves only if what it says does (not for notes or evidence).
  return replaceRecord(
    scope,
    qualificationAwards,
    { replace: next, was: award },
    rels,
    [],
    undefined,
    entryMoved(award, next) ? [onPerson(next)] : [],
  );
};

/** Deletes an award recorded by mistake: only while pending or rejected (a decided award is history). */
export const deleteAward = async (scope: Scope, award: StoredResource) => {
  const status = award.attributes.status;
  if (status !== 'pending_approval' && status !== 'rejected')
    throw new ConflictError(
      `An award ${status} is part of the person's history: revoke it rather than delete it.`,
    );
  await commitChecked(scope, [{ delete: award }], [onPerson(award, true), typeCount(award, -1)]);
};

/**
 * An award's expiry warning, run by the schedule: `qualification-award.expiring` 30 and 7 days before,
 * then `.expired` on the day, when the award becomes expired. Moot (the award revoked or gone since): the
 * entry is removed. Each run of it is one transaction, so a warning runs once.
 */
export const warnOfExpiry = async (entry: DueEntry, now: number) => {
  const scope = scopeOf([entry.org_id], undefined, systemActor('schedules'));
  const award = await getItem<StoredResource>(qualificationAwards.keyOf(entry.org_id, entry.id), true);
  const days = Number(entry.data?.days ?? 0);
  const current = award && award.schedule?.sk === entry.sk && award.attributes.status === 'valid';
  if (!current) {
    await commitChecked(scope, [removeDueEntryOp(entry)], []);
    return;
  }
  const after = days === 0 ? null : warningEntry(award, now, days);
  const changed = changedRecord(
    qualificationAwards,
    award,
    {
      ...(days === 0 && { attributes: { status: 'expired' } }),
      meta: { expiry_warning: { days, due: entry.due } },
    },
    new Date(now),
  );
  const next = scheduled(changed, after);
  await commitChecked(
    scope,
    [
      { replace: next, was: award, as: days === 0 ? 'expired' : 'expiring' },
      removeDueEntryOp(entry),
      ...(after ? [dueEntryOp(after)] : []),
    ],
    [onPerson(next)],
  );
};
