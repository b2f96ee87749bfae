/**
 * The audit consumer: every event becomes one permanent audit entry. Events expire after 35 days (the
 * change feed's window); the audit log does not, so the stream copies each event, as it arrives, into
 * an `audit-events` record: its action is the event's name, its subject, time and actor are the event's,
 * and `before`/`after` are the members of the subject that changed (`shared/data/changed-members.ts`).
 *
 * What the subject was before comes with the event (issue 42, item 7): the write that committed it read
 * the version it replaced (its conditional write names it), so the event carries the members it changed
 * as they were (`was`, never served; a deletion's whole record). An entry is made from its event alone:
 * no state kept per subject, and no entry depends on the one before it, so a subject's events may be
 * recorded in any order.
 *
 * Exactly once, in one transaction: the entry, created only if its key (the event's id) is free, and the
 * counts it moves (the organisation's count of entries, as any create moves its type's; and, for a subject
 * whose history a route lists (`historySubjects`), the subject's count, that history's total). A
 * redelivered event finds its key taken and writes nothing, whenever it comes; a crash leaves all of it or
 * none; the SDK's retry of a transaction that landed and timed out carries the same request token, which
 * DynamoDB applies once. A put alone with its counts after it would cost two units less (a transaction
 * bills each item twice), and lose a count to a crash between them or to the retry of a put that landed
 * (refused: its key is taken), and count twice on the retry of a count that landed.
 */

import { declareAccessPatterns, keyFrom } from '#shared/data/access-patterns';
import { changedMembers, type Members, memberNames } from '#shared/data/changed-members';
import { readPresentation, type StoredEvent } from '#shared/data/events';
import { getConsistent } from '#shared/data/repository';
import { type Scope, scopeOf, systemActor } from '#shared/data/scope';
import { StorageLimitExceeded } from '#shared/data/storage-limits';
import { type ItemKey, tenantPattern } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import { toStoredResource } from '#shared/engine/stored';
import { auditEvents, historyCounter, historySubjects, subjectIndexKey } from './audit-events';
import { storedSides } from './entry-sides';

/**
 * Where a subject's state was kept before it moved onto its history item, and before events carried
 * what they changed: read only for an event committed before that (`was` absent); migration 28 removes
 * them.
 */
const keys = /* @__PURE__ */ declareAccessPatterns('audit/consumer', {
  state: {
    ...tenantPattern('audit-states', '{subject_id}'),
    about:
      "former: `state` as the subject's last audit entry left it, before events carried what they changed; removed by migration 28",
  },
});
export const formerStateKey = (orgId: string, subjectId: string): ItemKey =>
  keyFrom(keys.state, { org_id: orgId, subject_id: subjectId });

type Data = Members & { type?: unknown; id?: unknown };

/** What an entry says changed: both sides, or (too large to keep) the names of the members. */
interface Change {
  before: unknown;
  after: unknown;
  omitted?: string[];
}

/**
 * What the event says about its subject: the record as it became; that it is gone (a deletion carries
 * only its identifier); or neither, when it carries something kept beside the record (a rate code's new
 * version), which leaves the subject as it was.
 */
const subjectAfter = (event: StoredEvent): { now: Members | null } | null => {
  const data = event.data as Data;
  if (data.type !== event.subject.type || data.id !== event.subject.id) return null;
  return { now: 'attributes' in data ? data : null };
};

/** The members a change side names, as they are in `now` (a member `now` lacks is null). */
const sameMembers = (side: Members, now: Members): Members =>
  Object.fromEntries(
    (['attributes', 'relationships'] as const).flatMap((section) => {
      const names = Object.keys(side[section] ?? {});
      return names.length === 0
        ? []
        : [[section, Object.fromEntries(names.map((name) => [name, now[section]?.[name] ?? null]))]];
    }),
  );

/**
 * The state an event committed before events carried `was` is diffed against, where the consumer kept it
 * then: its history item's `state`, or the former state item (`formerStateKey`); null once removed.
 */
const keptState = async (scope: Scope, event: StoredEvent): Promise<Members | null> => {
  const org = event.org_id;
  const [held, former] = await Promise.all(
    [historyCounter(org, event.subject.id), formerStateKey(org, event.subject.id)].map(
      (key) => getConsistent(scope, { ...key, orgId: org }) as Promise<{ state?: Members } | null>,
    ),
  );
  const kept = held?.state ?? former?.state ?? null;
  // Kept without its empty relationships, like the entries: whole again for the diff.
  return kept && readPresentation(kept, event.subject.type);
};

/** The members the event changed, as they were and as they became. */
const changeOf = async (scope: Scope, event: StoredEvent): Promise<Change> => {
  const subject = subjectAfter(event);
  if (!subject) return { before: null, after: event.data };
  const { was } = event;
  if (was === undefined) return changedMembers(await keptState(scope, event), subject.now);
  if (was === null || subject.now === null)
    return changedMembers(was && readPresentation(was, event.subject.type), subject.now);
  return { before: was as Members, after: sameMembers(was as Members, subject.now) };
};

/** The relationship naming who acted; the service acting on its own has none (`actor` says which). */
const actorRels = ({ actor }: StoredEvent) => ({
  actor_user: actor.kind === 'user' ? actor.id : null,
  actor_service_account: actor.kind === 'service-account' ? actor.id : null,
});

/** The entry an event becomes, filed under its subject where its history is listed. */
const entryOf = (event: StoredEvent, change: Change) => {
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

/**
 * The entry and its counts, committed together; nothing if the entry is there (recorded before, or by
 * another delivery at the same time).
 */
const record = async (scope: Scope, event: StoredEvent, change: Change) => {
  const org = event.org_id;
  try {
    await commit(scope, [
      // Counted on the organisation's count of entries, as any create is on its type's.
      { create: entryOf(event, change) },
      ...(historySubjects.has(event.subject.type)
        ? [{ count: { key: historyCounter(org, event.subject.id), by: 1 } }]
        : []),
    ]);
  } catch (error) {
    if (error instanceof WriteRefused && error.code === 'exists' && error.op === 0) return;
    throw error;
  }
};

export const recordAuditEntry = async (event: StoredEvent): Promise<void> => {
  const scope = scopeOf([event.org_id], undefined, systemActor('audit'));
  const change = await changeOf(scope, event);
  try {
    await record(scope, event, change);
  } catch (error) {
    if (!(error instanceof StorageLimitExceeded && error.limit === 'item')) throw error;
    // Both sides of a large change do not fit in one item: the entry names the members that changed.
    const omitted = [
      ...new Set([...memberNames(change.before as Members), ...memberNames(change.after as Members)]),
    ];
    await record(scope, event, { before: null, after: null, omitted });
  }
};
