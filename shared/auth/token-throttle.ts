/**
 * Brute-force protection for the token endpoint: failed client authentications are counted per client
 * id and per source address, each in a window that its first failure opens. The failure that reaches a
 * limit, and every attempt after it until the window closes, is answered 429 with `Retry-After`, even
 * with the right secret (otherwise guessing would go on at full speed, refused only when wrong).
 *
 * Client ids are counted whether or not they exist, with the same keys, limits and answers, so the
 * throttle tells nobody which ids are real. A success writes nothing and resets nothing: the success
 * path stays one read, and a legitimate client's success cannot wipe an attacker's count for its id.
 * The API is IPv4-only (no dual-stack endpoint), so a source is its address; were IPv6 enabled, sources
 * would have to be counted per /64.
 */
import { config } from '../config';
import { countFailure, type FailureCount, failureCountKey, openCount } from '../data/failure-counts';
import { type ItemKey, keyId } from '../data/stored-resource';

export interface TokenThrottle {
  /** The counts to read with the client record, in the same BatchGetItem. */
  keys: readonly ItemKey[];
  /** Seconds until the attempt may be retried if either count is at its limit, else null. */
  lockedFor(read: ReadonlyMap<string, unknown>, now?: number): number | null;
  /** Counts a failure against both; seconds to wait if that reached a limit, else null. */
  fail(now?: number): Promise<number | null>;
}

const secondsUntil = (count: FailureCount, now: number) =>
  Math.max(1, Math.ceil(count.expires_at - now / 1000));

export const tokenThrottle = (clientId: string, sourceIp: string): TokenThrottle => {
  const counted = [
    { key: failureCountKey('client', clientId), limit: config.TOKEN_FAILURES_PER_CLIENT },
    { key: failureCountKey('source', sourceIp), limit: config.TOKEN_FAILURES_PER_SOURCE },
  ];
  const wait = (counts: (FailureCount | null)[], now: number) => {
    const waits = counts.flatMap((count, i) =>
      count && count.failures >= (counted[i]?.limit ?? 0) ? [secondsUntil(count, now)] : [],
    );
    return waits.length > 0 ? Math.max(...waits) : null;
  };
  return {
    keys: counted.map((c) => c.key),
    lockedFor: (read, now = Date.now()) =>
      wait(
        counted.map((c) => openCount(read.get(keyId(c.key)), now)),
        now,
      ),
    fail: async (now = Date.now()) =>
      wait(
        await Promise.all(counted.map((c) => countFailure(c.key, config.TOKEN_FAILURE_WINDOW_SECONDS, now))),
        now,
      ),
  };
};
