/**
 * Reads and writes of one user's inbox: its state item and its envelopes, by key and by arrival, in the
 * shapes the rules read (`rules/inbox-state.ts`). The storage is the data layer's (`shared/data/inbox.ts`).
 */
import { keyFrom, partitionFrom } from '#shared/data/access-patterns';
import { type InboxPut, queryInbox, readConsistently } from '#shared/data/inbox';
import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import { notifications } from './definitions';
import {
  arrivalTime,
  dayOf,
  type EnvelopeMarks,
  effectiveMarks,
  emptyState,
  type InboxState,
  type InboxStateItem,
  type Mark,
} from './rules/inbox-state';

/** An envelope as stored: a tenant-shaped record (its organisation's) in its recipient's partition. */
export interface StoredEnvelope extends StoredResource {
  user_id: string;
  /** Its arrival position (a UUIDv7), also its `lsi1` value after `ARRIVED#`. */
  arrival: string;
  /** The generations of the watermarks when its own marks were written (internal, never served). */
  marked: Record<Mark, number>;
}

const ARRIVED = 'ARRIVED#';

export const stateKey = (userId: string) => keyFrom(notifications.keys.state, { user_id: userId });
export const envelopeKey = (userId: string, id: string) =>
  keyFrom(notifications.keys.record, { user_id: userId, id });
export const inboxPartition = (userId: string) =>
  partitionFrom(notifications.keys.record, { user_id: userId });
export const arrivalEntry = (arrival: string) => `${ARRIVED}${arrival}`;

/**
 * Whether an envelope is in its recipient's inbox: it carries its arrival entry. One kept out (its
 * category's inbox off, e-mail on) is its e-mail's record only, so what lists, shows and marks envelopes
 * agrees with the listing's sparse index: it is none of theirs.
 */
export const inInbox = (envelope: Pick<StoredEnvelope, 'lsi1'>) => envelope.lsi1 !== undefined;

type StoredState = InboxStateItem & { pk: string; sk: string };

const asState = (stored: StoredState | null): InboxStateItem =>
  stored ? { version: stored.version, watermarks: stored.watermarks, counts: stored.counts } : emptyState();

/** The inbox's state; `consistent` where a write decides on it. */
export const readState = async (userId: string, consistent = false): Promise<InboxStateItem> =>
  asState(await getItem<StoredState>(stateKey(userId), consistent));

/** The states of several inboxes, consistently (a fan-out's recipients). */
export const readStates = async (userIds: readonly string[]): Promise<Map<string, InboxStateItem>> => {
  const found = await readConsistently<StoredState & { user_id: string }>(userIds.map(stateKey));
  const byUser = new Map(found.map((item) => [item.user_id, asState(item)]));
  return new Map(userIds.map((id) => [id, byUser.get(id) ?? emptyState()]));
};

/** The state item as written: its version one on from the one read (a put refused if it moved since). */
export const statePut = (userId: string, state: InboxStateItem): InboxPut => ({
  ...stateKey(userId),
  user_id: userId,
  version: state.version,
  watermarks: state.watermarks,
  counts: state.counts,
});

export const marksOf = (envelope: StoredEnvelope): EnvelopeMarks => ({
  org_id: envelope.org_id,
  arrival: envelope.arrival,
  category: String(envelope.attributes.category),
  state: envelope.attributes.state as InboxState,
  saved: envelope.attributes.saved === true,
  archived: envelope.attributes.archived === true,
  marked: envelope.marked,
});

/** The envelope as served: its state and archived flag the effective ones. */
export const asServed = (envelope: StoredEnvelope, state: InboxStateItem): StoredEnvelope => ({
  ...envelope,
  attributes: { ...envelope.attributes, ...effectiveMarks(marksOf(envelope), state) },
});

export const readEnvelope = async (userId: string, id: string, consistent = false) =>
  getItem<StoredEnvelope>(envelopeKey(userId, id), consistent);

const DAY = 86_400_000;
/** The least and greatest UUIDv7 of a millisecond range's start and end. */
const firstIdAt = (ms: number) => {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7000-8000-000000000000`;
};

/** The envelopes that arrived on `position`'s day after it: what a watermark's own day is counted from. */
export const arrivedLaterThatDay = (userId: string, position: string): Promise<StoredEnvelope[]> => {
  const dayEnd = Math.floor(arrivalTime(position) / DAY) * DAY + DAY;
  return queryInbox<StoredEnvelope>(inboxPartition(userId), {
    index: 'lsi1',
    from: arrivalEntry(position),
    to: arrivalEntry(firstIdAt(dayEnd)),
    descending: false,
  }).then((items) =>
    items.filter(
      (item) => item.arrival > position && dayOf(arrivalTime(item.arrival)) === dayOf(arrivalTime(position)),
    ),
  );
};

/** Envelopes by arrival, newest first (or oldest), after `after` (an arrival position and its id). */
export const arrivalsPage = (
  userId: string,
  descending: boolean,
  limit: number,
  after?: { arrival: string; id: string },
): Promise<StoredEnvelope[]> =>
  queryInbox<StoredEnvelope>(inboxPartition(userId), {
    index: 'lsi1',
    from: ARRIVED,
    to: `${ARRIVED}~`,
    descending,
    limit,
    // The envelope's own sort key (`ENVELOPE#<id>`), not its bare id: DynamoDB resumes after (index value, key).
    ...(after && { after: { value: arrivalEntry(after.arrival), sk: envelopeKey(userId, after.id).sk } }),
  });
