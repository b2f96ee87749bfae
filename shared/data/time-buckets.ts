/**
 * Time buckets: a type whose records would outgrow one item collection (10 GB, with local indexes: the
 * growth table in README.md) keeps them in one partition per calendar month (UTC) of their UUIDv7 ids,
 * `ORG#<org>#<type>#<yyyy-mm>`. The month is in the id, so a record's key is known from its id alone (a
 * GET, a write, a cursor's resume), and the months in key order are the records in key order: a list walks
 * them oldest or newest first, each one a key range of its own, and its cursor stays the last key read.
 *
 * Records made before the type's buckets (ids before `since`) stay where they were written, in the type's
 * former partition `ORG#<org>#<type>`, which the walk reads as the oldest bucket. A release deployed after
 * `since` began leaves records the code before it wrote there with ids of a bucketed month: a migration
 * moves them to their months (`misplacedSelection`, `moveRecord` in migrations.ts).
 */
import { type AccessPattern, partitionFrom } from './access-patterns';
import { idTime, UUID } from './ids';
import { collectionPartition } from './stored-resource';

export interface TimeBuckets {
  /** The first month (`yyyy-mm`) whose records are bucketed; those before stay in the former partition. */
  since: string;
  /**
   * Local indexes whose values the type's writes keep inside their record's bucket (an attendance's sign-in
   * time, held to the month of its id): read month after month in that index's order, the walk is in order.
   */
  orderedWithin?: readonly string[];
}

const bucketed = new Map<string, TimeBuckets>();

const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);
const nextMonth = (month: string) => {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return monthOf(Date.UTC(year, number, 1));
};

/** The least id of a month (`yyyy-mm`): every UUIDv7 of that month or later sorts at or after it. */
export const firstIdOf = (month: string): string => {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const hex = Date.UTC(year, number - 1, 1)
    .toString(16)
    .padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}`;
};

/** The bucket of a moment: its month, or null before the buckets (the former partition). */
const bucketAt = (buckets: TimeBuckets, ms: number): string | null => {
  const month = monthOf(ms);
  return month >= buckets.since ? month : null;
};

/** The month bucket of a record of a bucketed type, from its id; null before the buckets (the former partition). */
const bucketOf = (buckets: TimeBuckets, id: string): string | null =>
  UUID.test(id) ? bucketAt(buckets, idTime(id)) : null;

/**
 * Declares a type bucketed by month: its `record` pattern (the month bucket) and `former-record` (the
 * partition before), for the type's `keys`, and the `keyOf` that finds a record's bucket from its id.
 */
export const declareTimeBuckets = (type: string, buckets: TimeBuckets) => {
  bucketed.set(type, buckets);
  const record = {
    index: 'table',
    pk: `ORG#{org_id}#${type}#{month}`,
    sk: '{id}',
    about: `one partition per month (UTC) of the ids, from ${buckets.since} (data/time-buckets.ts)`,
  } as const satisfies AccessPattern;
  const former = {
    index: 'table',
    pk: `ORG#{org_id}#${type}`,
    sk: '{id}',
    about: `former: records made before ${buckets.since}, read as the oldest bucket`,
  } as const satisfies AccessPattern;
  return {
    since: buckets.since,
    keys: { record, 'former-record': former },
    /** Whether `instant` lies in the bucket of the record `id`: the month its id was made in, or before `since`. */
    holds: (id: string, instant: string) => bucketOf(buckets, id) === bucketAt(buckets, Date.parse(instant)),
    keyOf: (orgId: string, id: string) => {
      const month = bucketOf(buckets, id);
      return {
        pk: month
          ? partitionFrom(record, { org_id: orgId, month })
          : partitionFrom(former, { org_id: orgId }),
        sk: id,
      };
    },
  };
};

/**
 * The Scan filter selecting a bucketed type's records left in its former partition with ids of `since` or
 * later (the code before the buckets wrote them there): a month's key goes on past `#<type>#`, the former
 * one ends at `#<type>`, and ids are UUIDv7s written in lower case, so they compare as their times.
 */
export const misplacedSelection = (type: string, since: string) => ({
  expression:
    '#type = :type AND sk = #id AND begins_with(pk, :tenant) AND NOT contains(pk, :bucket) AND #id >= :since',
  names: { '#type': 'type', '#id': 'id' },
  values: { ':type': type, ':tenant': 'ORG#', ':bucket': `#${type}#`, ':since': firstIdOf(since) },
});

/** Whether a type's records are spread over monthly partitions (declared with `declareTimeBuckets`). */
export const isBucketed = (type: string): boolean => bucketed.has(type);

/** The one partition of a type that is not bucketed, for reads that take a whole partition. */
export const onlyPartition = (orgId: string, type: string): string => {
  if (bucketed.has(type)) throw new Error(`${type} is bucketed by time: it has no one partition to read`);
  return collectionPartition(orgId, type);
};

/**
 * The partitions an organisation's records of a type are read from, in key order (oldest first, or newest
 * first when `descending`): one for a type that is not bucketed; for a bucketed one the former partition,
 * then each month from `since` to this one. `from` (the id a cursor resumes after) starts the walk at its
 * own bucket. An organisation whose id (a UUIDv7) is younger than `since` has no former records and no
 * months before its own, so neither is read. `within` (a window of an `orderedWithin` index's time: the
 * sign-ins of a register) keeps the buckets that hold its moments, and those alone.
 */
export const partitionsOf = (
  orgId: string,
  type: string,
  {
    descending = false,
    from,
    index,
    now = Date.now(),
    within = {},
  }: {
    descending?: boolean;
    from?: string;
    index?: string;
    now?: number;
    within?: { since?: string; until?: string };
  } = {},
): string[] => {
  const buckets = bucketed.get(type);
  const former = collectionPartition(orgId, type);
  if (!buckets) return [former];
  // Months in order are records in key order only: a local index's order runs across them, unless the
  // type's writes keep that index's values inside their bucket (`orderedWithin`).
  if (index && !buckets.orderedWithin?.includes(index))
    throw new Error(`${type} is bucketed by time: it is read in key order, never by ${index}`);
  const born = UUID.test(orgId) ? monthOf(idTime(orgId)) : '';
  const months: string[] = [];
  for (
    let month = born > buckets.since ? born : buckets.since;
    month <= monthOf(now);
    month = nextMonth(month)
  )
    months.push(month);
  // The window's first and last bucket: undefined, unbounded; null, the former partition.
  const [first, last] = [within.since, within.until].map((at) => at && bucketAt(buckets, Date.parse(at)));
  const held = (month: string) => (!first || month >= first) && last !== null && (!last || month <= last);
  const all = [
    ...(born < buckets.since && !first ? [former] : []),
    ...months.filter(held).map((month) => `${former}#${month}`),
  ];
  const ordered = descending ? all.reverse() : all;
  if (from === undefined) return ordered;
  const month = bucketOf(buckets, from);
  const own = month ? `${former}#${month}` : former;
  const start = ordered.indexOf(own);
  // A bucket outside the walk (an id from a clock ahead) is still where that cursor resumes, never the start.
  return start < 0 ? [own] : ordered.slice(start);
};
