/**
 * The audit consumer: every event becomes one permanent audit entry. Events expire after 35 days (the
 * change feed's window); the audit log does not, so the stream copies each event, as it arrives, into
 * an `audit-events` record: its action is the event's name, its subject, time and actor are the event's,
 * and `before`/`after` are the members of the subject that changed (`functions/audit/rules/changes.ts`).
 *
 * What the subject was before comes from its audit state (one item per subject, `auditStateKey`: the
 * record as its last entry left it), read with a strongly consistent GetItem and replaced in the same
 * transaction as the entry. Not from the subject's latest entry on `gsi1`: a global index is read
 * eventually consistently, and a subject's events often arrive back to back (created, then allocated),
 * so the entry just written could be missed and the next diff made against an older state.
 *
 * Order: the state is only right if a subject's events are handled in the order they committed. They
 * are: every event of an organisation shares one partition (`EVENTS#<org>`), a stream keeps order
 * within a partition key, and the event source mapping has a parallelisation factor of 1, so one
 * organisation's events are handed over one batch at a time, in order (`consume.ts` stops a batch at
 * its first failure). An event the mapping gives up on (the dead-letter queue, after 24 hours) has no
 * entry, and the next entry of its subject shows the change since the last one recorded.
 *
 * Idempotent by event id: the entry's id is the event's, created only if absent, with the history
 * counter and the state in the same transaction; a redelivered event is refused as a whole (nothing is
 * counted twice) and counts as done.
 */

import { declareAccessPatterns, keyFrom } from '#shared/data/access-patterns';
import type { StoredEvent } from '#shared/data/events';
import { getConsistent } from '#shared/data/repository';
import { scopeOf, systemActor } from '#shared/data/scope';
import { StorageLimitExceeded } from '#shared/data/storage-limits';
import { type ItemKey, tenantPattern } from '#shared/data/stored-resource';
import { commit, type WriteOp, WriteRefused } from '#shared/data/transaction';
import { toStoredResource } from '#shared/engine/stored';
import { auditEvents, historyCounter, subjectIndexKey } from './audit-events';
import { changedMembers, type Members, memberNames, membersOf } from './rules/changes';

/** A subject's state as its last audit entry left it (internal, never served). */
const keys = /* @__PURE__ */ declareAccessPatterns('audit/consumer', {
  state: {
    ...tenantPattern('audit-states', '{subject_id}'),
    about:
      "internal: `state` (`{attributes, relationships}`) as the subject's last audit entry left it, `event_id`; removed when the subject is deleted",
  },
});
export const auditStateKey = (orgId: string, subjectId: string): ItemKey =>
  keyFrom(keys.state, { org_id: orgId, subject_id: subjectId });

interface AuditState {
  state: Members;
  event_id: string;
}

/** Only the members are kept: they are all a later entry compares (its type and id are the key's). */
const stateItem = (event: StoredEvent, state: Members): AuditState & { org_id: string } => ({
  org_id: event.org_id,
  state: membersOf(state),
  event_id: event.id,
});

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

const entryOps = (
  event: StoredEvent,
  change: { before: unknown; after: unknown; omitted?: string[] },
  state: WriteOp[],
): WriteOp[] => {
  const record = toStoredResource(auditEvents, {
    orgId: event.org_id,
    id: event.id,
    attributes: {
      action: event.event,
      occurred_at: event.occurred_at,
      subject: event.subject,
      actor: { kind: event.actor.kind, id: event.actor.id },
      ...change,
    },
    meta: { created_at: event.occurred_at },
    rels: actorRels(event),
  });
  return [
    { create: { ...record, gsi1pk: subjectIndexKey(event.subject.id), gsi1sk: event.id } },
    { count: { key: historyCounter(event.org_id, event.subject.id), by: 1 } },
    ...state,
  ];
};

export const recordAuditEntry = async (event: StoredEvent): Promise<void> => {
  const scope = scopeOf([event.org_id], undefined, systemActor('audit'));
  const key = auditStateKey(event.org_id, event.subject.id);
  const held = (await getConsistent(scope, { ...key, orgId: event.org_id })) as unknown as AuditState | null;
  const was = held?.state ?? null;
  const subject = subjectAfter(event);
  const change = subject ? changedMembers(was, subject.now) : { before: null, after: event.data };
  // The subject as this entry leaves it: its new state, none once it is gone, or as it was.
  const state: WriteOp[] = !subject
    ? []
    : subject.now
      ? [{ put: { ...key, ...stateItem(event, subject.now) } }]
      : [{ remove: key }];
  const write = (ops: WriteOp[]) =>
    commit(scope, ops).catch((error: unknown) => {
      // The entry exists: this event was recorded before (a redelivery), with its count and state.
      if (error instanceof WriteRefused && error.code === 'exists' && error.op === 0) return;
      throw error;
    });
  try {
    await write(entryOps(event, change, state));
  } catch (error) {
    if (!(error instanceof StorageLimitExceeded && error.limit === 'item')) throw error;
    // Both sides of a large change do not fit in one item: the entry names the members that changed.
    const omitted = [
      ...new Set([...memberNames(change.before as Members), ...memberNames(change.after as Members)]),
    ];
    await write(entryOps(event, { before: null, after: null, omitted }, state));
  }
};
