/**
 * The audit consumer: every event becomes one permanent audit entry. Events expire after 35 days (the
 * change feed's window); the audit log does not, so the stream copies each event, as it arrives, into
 * an `audit-events` record: its action is the event's name, its subject, time and actor are the event's,
 * and `before`/`after` are the members of the subject that changed (`functions/audit/rules/changes.ts`).
 *
 * What the subject was before comes from its history item (`historyCounter`: the count of its entries,
 * `state`, the record as its last entry left it, and `mark`, that entry's place in the subject's order),
 * read with a strongly consistent GetItem. Not from the subject's latest entry on `gsi1`: a global index
 * is read eventually consistently, and a subject's events often arrive back to back (created, then
 * allocated), so the entry just written could be missed and the next diff made against an older state.
 *
 * Order: a subject's events are handed over in the order they committed (one organisation's events share
 * a partition, a stream keeps order within one, and `consume-batch.ts` runs each subject's events of a
 * batch in order, stopping that subject at its first failure). An event the mapping gives up on (the
 * dead-letter queue, after 24 hours) has no entry, and the next entry of its subject shows the change
 * since the last one recorded.
 *
 * Exactly once, without a transaction around the entry (which would bill its kilobyte twice): the entry
 * is created only if absent (its id is the event's); then one small transaction moves the subject's
 * history item (its count, state and mark) and the organisation's count of entries together, only if
 * the event is later in the subject's order than the mark (`subjectOrder`: the subject's version the
 * event leaves, which its write was conditional on). A redelivered event, even after later ones of its
 * subject, is below the mark and moves nothing; one retried after the entry landed and the counts did
 * not (a crash between the two) finds its entry and still moves them.
 */

import { declareAccessPatterns, keyFrom } from '#shared/data/access-patterns';
import { readPresentation, type StoredEvent, storedPresentation } from '#shared/data/events';
import { pastMark, putUnlessPresent } from '#shared/data/once-per-event';
import { getConsistent } from '#shared/data/repository';
import { scopeOf, systemActor } from '#shared/data/scope';
import { StorageLimitExceeded } from '#shared/data/storage-limits';
import { counterKey, type ItemKey, tenantPattern } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import { toStoredResource } from '#shared/engine/stored';
import { auditEvents, historyCounter, historySubjects, subjectIndexKey } from './audit-events';
import { storedSides } from './entry-sides';
import { changedMembers, type Members, memberNames, membersOf } from './rules/changes';

/**
 * Where a subject's state was kept before it moved onto its history item: read for a subject whose
 * history item has no `mark` yet, and removed by the transaction that gives it one.
 */
const keys = /* @__PURE__ */ declareAccessPatterns('audit/consumer', {
  state: {
    ...tenantPattern('audit-states', '{subject_id}'),
    about:
      "former: `state` as the subject's last audit entry left it (now kept on its `audit-events#<subject id>` counter); removed by the subject's next event",
  },
});
export const formerStateKey = (orgId: string, subjectId: string): ItemKey =>
  keyFrom(keys.state, { org_id: orgId, subject_id: subjectId });

/** A subject's history item: the count of its entries, its state as the last one left it, and its mark. */
interface History {
  count?: number;
  state?: Members;
  mark?: string;
}

/**
 * An event's place in its subject's order: the version it leaves the subject at (zero-padded, so the
 * strings compare as the numbers), then its id, which orders events that leave the version as it was (a
 * rate code's new version, kept beside the code). Events committed before they carried a version sort
 * first: they were handed over before any that do.
 */
export const subjectOrder = (event: Pick<StoredEvent, 'id' | 'subject_version'>): string =>
  `${String(event.subject_version ?? 0).padStart(12, '0')}#${event.id}`;

type Data = Members & { type?: unknown; id?: unknown };

/**
 * What the event says about its subject: the record as it became; that it is gone (a deletion carries
 * only its identifier); or neither, when it carries something kept beside the record (a rate code's new
 * version), which leaves the subject's state as it was.
 */
const subjectAfter = (event: StoredEvent): { now: Members | null } | null => {
  const data = event.data as Data;
  if (data.type !== event.subject.type || data.id !== event.subject.id) return null;
  return { now: 'attributes' in data ? data : null };
};

/** The relationship naming who acted; the service acting on its own has none (`actor` says which). */
const actorRels = ({ actor }: StoredEvent) => ({
  actor_user: actor.kind === 'user' ? actor.id : null,
  actor_service_account: actor.kind === 'service-account' ? actor.id : null,
});

/** The entry an event becomes, filed under its subject where its history is listed. */
const entryOf = (event: StoredEvent, change: { before: unknown; after: unknown; omitted?: string[] }) => {
  const record = toStoredResource(auditEvents, {
    orgId: event.org_id,
    id: event.id,
    attributes: {
      action: event.event,
      occurred_at: event.occurred_at,
      subject: event.subject,
      actor: { kind: event.actor.kind, id: event.actor.id },
      ...storedSides(change, event.subject.type),
    },
    meta: { created_at: event.occurred_at },
    rels: actorRels(event),
  });
  // Filed under its subject only where a history route reads it.
  return historySubjects.has(event.subject.type)
    ? { ...record, gsi1pk: subjectIndexKey(event.subject.id), gsi1sk: event.id }
    : record;
};

export const recordAuditEntry = async (event: StoredEvent): Promise<void> => {
  const org = event.org_id;
  const scope = scopeOf([org], undefined, systemActor('audit'));
  const held = (await getConsistent(scope, {
    ...historyCounter(org, event.subject.id),
    orgId: org,
  })) as History | null;
  // At or below the mark: recorded and counted before (a redelivery), or a stale event handed over after
  // later ones of its subject, whose diff against the later state would be wrong: nothing to write.
  if (held?.mark !== undefined && held.mark >= subjectOrder(event)) return;
  // A subject last recorded before states moved onto the history item: its state is in the former item.
  const former = held && held.mark === undefined ? formerStateKey(org, event.subject.id) : null;
  const kept = former
    ? (((await getConsistent(scope, { ...former, orgId: org })) as { state?: Members } | null)?.state ?? null)
    : (held?.state ?? null);
  // Kept without its empty relationships, like the entries: whole again for the diff.
  const was = kept && readPresentation(kept, event.subject.type);
  const subject = subjectAfter(event);
  const change = subject ? changedMembers(was, subject.now) : { before: null, after: event.data };
  try {
    await putUnlessPresent(scope, entryOf(event, change));
  } catch (error) {
    if (!(error instanceof StorageLimitExceeded && error.limit === 'item')) throw error;
    // Both sides of a large change do not fit in one item: the entry names the members that changed.
    const omitted = [
      ...new Set([...memberNames(change.before as Members), ...memberNames(change.after as Members)]),
    ];
    await putUnlessPresent(scope, entryOf(event, { before: null, after: null, omitted }));
  }
  try {
    await commit(scope, [
      // The subject as this entry leaves it: its new state, none once it is gone, or as it was.
      pastMark(scope, { ...historyCounter(org, event.subject.id), orgId: org }, subjectOrder(event), {
        add: { count: 1 },
        ...(subject?.now
          ? { set: { state: storedPresentation(membersOf(subject.now), event.subject.type) } }
          : subject
            ? { remove: ['state'] }
            : {}),
      }),
      { count: { key: counterKey(org, auditEvents.type), by: 1 } },
      ...(former ? [{ remove: former }] : []),
    ]);
  } catch (error) {
    // Past the mark meanwhile: another delivery of this event (or a later one) moved the counts.
    if (error instanceof WriteRefused && error.op === 0) return;
    throw error;
  }
};
