import { createHash, randomInt } from 'node:crypto';
import { v5, v7 } from 'uuid';

/**
 * The latest millisecond this process made an id for, and the counter its ids carry in `rand_a` and
 * the top of `rand_b` (RFC 9562 §6.2, method 1). `uuid`'s own `v7()` keeps the same state, but only for
 * the clock: ids for a given time (records dated by the `now` of their write, an import's rows, seed
 * data) would get a random counter each, and half of a tight loop's ids fell out of order.
 */
const latest = { msecs: Number.NEGATIVE_INFINITY, seq: 0 };
const SEQ_MAX = 0xffff_ffff;
/** A fresh counter starts in the lower half of its 32 bits, leaving 2^31 increments within a millisecond. */
const freshSeq = () => randomInt(2 ** 31);

/**
 * UUID version 7 (RFC 9562, laid out by the `uuid` package): the first 48 bits are `at` in milliseconds
 * (default now), so ids sort by time and a collection partition's `sk` order is its `created_at` order.
 * Ids this process makes for the same millisecond are strictly increasing (the counter moves by one);
 * an id for an earlier millisecond than the latest sorts by its own time, among the ids of that
 * millisecond in no particular order.
 */
export const uuidv7 = (at: number = Date.now()): string => {
  if (at < latest.msecs) return v7({ msecs: at });
  if (at > latest.msecs) {
    latest.msecs = at;
    latest.seq = freshSeq();
  } else if (latest.seq < SEQ_MAX) {
    latest.seq += 1;
  } else {
    // 2^31 ids in one millisecond: borrow the next one, as `uuid` does, so the order still holds.
    latest.msecs += 1;
    latest.seq = freshSeq();
  }
  return v7({ msecs: latest.msecs, seq: latest.seq });
};

/** The millisecond a UUIDv7 was minted for: its first 48 bits. */
export const idTime = (id: string): number => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A UUID version 7 made from its parts, not the clock: `at`, a counter `seq` (a row's place in a file)
 * and bits from `seed` (a job's id). The same parts give the same id, so a job's chunk done again writes
 * the same records; ids of one job sort by `seq`.
 */
export const uuidv7Of = (at: number, seq: number, seed: string): string =>
  v7({ msecs: at, seq, random: createHash('sha256').update(seed).digest() });

/**
 * UUID version 5 (RFC 9562 §5.5): the same id whenever the same `name` is given within `namespace`, for
 * a record there is exactly one of per something else (an organisation's settings).
 */
export const uuidv5 = (name: string, namespace: string): string => v5(name, namespace);
