/**
 * Awards' writes. An award is recorded pending approval; someone holding `qualifications:approve` approves
 * (having seen its evidence, which its type may require) or rejects it; a valid award expires on its date
 * or is revoked. Each award is also kept, as one entry, on its person's record (`award#<id>`), so a
 * person's competence is read with the person: an evaluation of 100 people is one BatchGetItem. An approved
 * award with an expiry has an entry due (data/due-work.ts) for its warnings, 30, 7 and 0 days before.
 */
import * as z from 'zod';
import { type FolderTally, folderTallyKey } from '#functions/documents/definitions';
import { users } from '#functions/people/users';
import type { Principal } from '#shared/auth/principal';
import { type DueEntry, dueEntry, dueEntryOp, removeDueEntryOp } from '#shared/data/due-work';
import { batchGetInScope, getItem, readAheadOr } from '#shared/data/repository';
import { type Scope, scopeOf, systemActor } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
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
import { ConflictError, ForbiddenError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { AWARDS_OF_TYPE, qualificationAwards, qualificationTypes } from './definitions';
import { EXPIRY_WARNING } from './due-work';
import { ON_PERSON } from './person-awards';
import {
  type AwardAction,
  type AwardEntry,
  type AwardStatus,
  awardMove,
  deciderRefusal,
  expiryAfter,
  nextWarning,
} from './rules/awards';

const entryOf = (award: StoredResource): AwardEntry => ({
  id: award.id,
  qualification_type: String(award.rels.qualification_type),
  status: award.attributes.status as AwardStatus,
  issued_at: String(award.attributes.issued_at),
  expires_at: (award.attributes.expires_at as string | null) ?? null,
  number: (award.attributes.number as string | null) ?? null,
});

/** The person's entry of the award, set (or, for a deleted award, removed); refused if the person is absent. */
const onPerson = (award: StoredResource, gone = false): Check => ({
  op: {
    keep: {
      key: users.keyOf(award.org_id, String(award.rels.person)),
      set: { [`${ON_PERSON}${award.id}`]: gone ? null : JSON.stringify(entryOf(award)) },
    },
  },
  pointer: '/data/relationships/person/data',
});

const typeCount = (award: StoredResource, by: number): Check => ({
  op: {
    keep: {
      key: qualificationTypes.keyOf(award.org_id, String(award.rels.qualification_type)),
      add: { [AWARDS_OF_TYPE]: by },
    },
  },
  pointer: '/data/relationships/qualification_type/data',
});

/** The award's next expiry warning, after the one at `after` days (if any): its schedule entry. */
const warningEntry = (award: StoredResource, now: number, after?: number): DueEntry | null => {
  const expires = award.attributes.expires_at;
  const next = typeof expires === 'string' ? nextWarning(expires, now, after) : null;
  return (
    next &&
    dueEntry(EXPIRY_WARNING.name, award.org_id, award.id, next.at, {
      data: { days: next.days },
    })
  );
};

/** The award with its schedule entry's key noted (so a revocation can remove it), or none. */
const scheduled = (award: StoredResource, entry: DueEntry | null): StoredResource => {
  const { schedule: _previous, ...rest } = award;
  return entry ? { ...rest, schedule: { pk: entry.pk, sk: entry.sk } } : rest;
};

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
  const moved = JSON.stringify(entryOf(next)) !== JSON.stringify(entryOf(award));
  return replaceRecord(scope, qualificationAwards, next, rels, [], undefined, moved ? [onPerson(next)] : []);
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

/** Evidence an approval needs, when the type requires it: a folder with at least one document. */
const assertEvidence = async (scope: Scope, award: StoredResource) => {
  const folder = award.rels.evidence;
  // The folder's tally is read beside the type, in case the type requires it.
  const [type, [tally]] = await Promise.all([
    typeOf(scope, award.org_id, award.rels.qualification_type),
    typeof folder === 'string' ? readAheadOr<FolderTally>(scope, [folderTallyKey(award.org_id, folder)]) : [],
  ]);
  if (!type.attributes.evidence_required) return;
  if (!tally?.documents)
    throw new ConflictError(
      'This qualification type requires evidence: link the award to a folder (evidence) holding at least one document first.',
    );
};

/**
 * Approves, rejects or revokes an award: 403 when its own person approves or rejects it (four eyes), 409
 * from a status where the action is not open. An approved award that expires goes on the schedule for its
 * warnings; a revoked one comes off it.
 */
export const decideAward = async (
  scope: Scope,
  award: StoredResource,
  action: AwardAction,
  principal: Principal | null,
  now = new Date(),
) => {
  const decider = principal?.kind === 'user' ? principal.id : null;
  const refusal = deciderRefusal(action, String(award.rels.person), decider);
  if (refusal) throw new ForbiddenError(refusal);
  const status = award.attributes.status as AwardStatus;
  const to = awardMove(action, status);
  if (!to) throw new ConflictError(`An award ${status.replace('_', ' ')} cannot be ${action}.`);
  if (action === 'approved') await assertEvidence(scope, award);
  // Who decided (approved or rejected) it; a revocation is the audit log's to tell.
  const verifier = action === 'revoked' ? {} : byPrincipal('verified_by', principal, 'verified_by');
  const changed = changedRecord(
    qualificationAwards,
    award,
    { attributes: { status: to }, rels: verifier, meta: { [`${action}_at`]: now.toISOString() } },
    now,
  );
  const entry = action === 'approved' ? warningEntry(award, now.getTime()) : null;
  const previous = award.schedule;
  const next = scheduled(changed, entry);
  const ops: WriteOp[] = [
    { replace: next, as: action },
    ...(previous ? [removeDueEntryOp(previous)] : []),
    ...(entry ? [dueEntryOp(entry)] : []),
  ];
  await commitChecked(scope, ops, [onPerson(next)]);
  return next;
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
      { replace: next, as: days === 0 ? 'expired' : 'expiring' },
      removeDueEntryOp(entry),
      ...(after ? [dueEntryOp(after)] : []),
    ],
    [onPerson(next)],
  );
};
