/**
 * Records kept for whole days (device backups, exports and jobs: 30): one made on day D (UTC) expires at the
 * end of day D + days, so at any moment the live ones are exactly those made since the start of day
 * (today − days). Their sort keys are UUIDv7s, time first (their ids, or an index's value after a prefix),
 * so the live ones are one key range of their partition,
 * read a page at a time however many have expired and wait for TTL to delete them; and a count per day of
 * creation (one counter item, a number per day) counts them without reading them.
 */
import type { CollectionQuery, PageRead } from './collection-query';
import type { Kept } from './kept';
import { type KeyRange, queryKeyRange } from './key-range';
import { getItem } from './repository';
import { inScope, type Scope } from './scope';
import { counterKey, type StoredResource } from './stored-resource';
import type { WriteOp } from './transaction';

const DAY = 86_400_000;
const dayStart = (ms: number) => Math.floor(ms / DAY) * DAY;

/** The index keys a record of a `gsi1`-filed kept collection is written with. */
export const keptIndexKeys = (kept: Kept, id: string) => ({ gsi1pk: kept.partition.pk, gsi1sk: id });

/** A record's TTL (epoch seconds): the end of its day of creation plus `days`. */
export const expiryOf = (days: number, now: Date): number =>
  (dayStart(now.getTime()) + (days + 1) * DAY) / 1000;

/** The first moment whose records are still live. */
const windowStart = (days: number, now: Date) => dayStart(now.getTime()) - days * DAY;

/** The least UUIDv7 minted at or after `ms`: every id of a record made since sorts at or after it. */
const firstIdAt = (ms: number) => {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7000-8000-000000000000`;
};

/** One counter item per collection: a number per day of creation (`d2026-11-24`), the window's and a few more. */
const countsKey = ({ orgId, counter }: Kept) => counterKey(orgId, `${counter}#days`);
const dayName = (ms: number) => `d${new Date(ms).toISOString().slice(0, 10)}`;

/** Days past the window whose numbers each count drops, so the item holds little more than the window. */
const DROPPED_DAYS = 7;

/** The op that counts a record made `now` in its day, in the transaction that makes it. */
export const countedDay = (kept: Kept, now: Date): WriteOp => {
  const start = windowStart(kept.days, now);
  return {
    tally: {
      key: countsKey(kept),
      add: { [dayName(now.getTime())]: 1 },
      drop: Array.from({ length: DROPPED_DAYS }, (_, i) => dayName(start - (i + 1) * DAY)),
    },
  };
};

/** What counts a record made at `at` in its day, as `countedDay` did when it was made (a migration's count). */
export const dayCount = (kept: Kept, at: Date) => ({
  key: countsKey(kept),
  add: { [dayName(at.getTime())]: 1 },
});

/** How many records of the collection are live: the window's days' numbers, in one item. */
const liveCount = async (kept: Kept, now: Date): Promise<number> => {
  const counts = await getItem<Record<string, unknown>>(countsKey(kept));
  const from = dayName(windowStart(kept.days, now));
  return Object.entries(counts ?? {})
    .filter(([name, n]) => /^d\d{4}-\d\d-\d\d$/.test(name) && name >= from && typeof n === 'number')
    .reduce((sum, [, n]) => sum + Number(n), 0);
};

/** The key range of a kept collection's live records: from the window's first UUIDv7, to its prefix's end. */
const liveRange = ({ partition: { prefix = '', ...partition }, days }: Kept, now: Date): KeyRange => ({
  ...partition,
  from: `${prefix}${firstIdAt(windowStart(days, now))}`,
  ...(prefix && { to: `${prefix}~` }),
});

/**
 * A page of a kept collection, newest or oldest first (its only order is by creation: the key's), from the
 * live key range of its partition (key-range.ts), its total from the day counts when unfiltered.
 */
export const queryKept = async (
  scope: Scope,
  kept: Kept,
  query: CollectionQuery,
  now = new Date(),
): Promise<PageRead<StoredResource>> =>
  inScope(scope, kept.orgId)
    ? queryKeyRange(scope, liveRange(kept, now), query, () => liveCount(kept, now))
    : { items: [], total: 0 };
