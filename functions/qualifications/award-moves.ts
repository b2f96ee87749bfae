/**
 * What an award's moves write beside its status, and what their guard reads: the award's entry on its
 * person (`award#<id>`, so a person's competence is read with the person), its expiry warnings on the due
 * index (data/due-work.ts). Apart from `awards.ts` so the declaration (`definitions.ts`) loads them only
 * when a move is made (a dynamic import: a read's bundle carries no due-work writes).
 */
import { users } from '#functions/people/users';
import { type DueEntry, dueEntry, dueEntryOp, removeDueEntryOp } from '#shared/data/due-work';
import type { StoredResource } from '#shared/data/stored-resource';
import type { Check } from '#shared/engine/declaration';
import type { MoveWrites } from '#shared/engine/lifecycle';
import { EXPIRY_WARNING } from './due-work';
import { ON_PERSON } from './person-awards';
import { type AwardEntry, type AwardStatus, nextWarning } from './rules/awards';

const entryOf = (award: StoredResource): AwardEntry => ({
  id: award.id,
  qualification_type: String(award.rels.qualification_type),
  status: award.attributes.status as AwardStatus,
  issued_at: String(award.attributes.issued_at),
  expires_at: (award.attributes.expires_at as string | null) ?? null,
  number: (award.attributes.number as string | null) ?? null,
});

/** Whether the person's entry would say something else of `next` than of `before`. */
export const entryMoved = (before: StoredResource, next: StoredResource) =>
  JSON.stringify(entryOf(next)) !== JSON.stringify(entryOf(before));

/** The person's entry of the award, set (or, for a deleted award, removed); refused if the person is absent. */
export const onPerson = (award: StoredResource, gone = false): Check => ({
  op: {
    keep: {
      key: users.keyOf(award.org_id, String(award.rels.person)),
      set: { [`${ON_PERSON}${award.id}`]: gone ? null : JSON.stringify(entryOf(award)) },
    },
  },
  pointer: '/data/relationships/person/data',
});

/** The award's next expiry warning, after the one at `after` days (if any): its schedule entry. */
export const warningEntry = (award: StoredResource, now: number, after?: number): DueEntry | null => {
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
export const scheduled = (award: StoredResource, entry: DueEntry | null): StoredResource => {
  const { schedule: _previous, ...rest } = award;
  return entry ? { ...rest, schedule: { pk: entry.pk, sk: entry.sk } } : rest;
};

/**
 * A decision's writes: an approved award that expires goes on the schedule for its warnings; any other
 * move takes it off (a revoked award warns no more); the person's entry follows the status.
 */
export const decisionWrites =
  (schedules: boolean) =>
  (moved: StoredResource, before: StoredResource, { now }: { now: Date }): MoveWrites => {
    const entry = schedules ? warningEntry(before, now.getTime()) : null;
    const next = scheduled(moved, entry);
    return {
      record: next,
      ops: [
        ...(before.schedule ? [removeDueEntryOp(before.schedule)] : []),
        ...(entry ? [dueEntryOp(entry)] : []),
      ],
      checks: [onPerson(next)],
    };
  };
