/**
 * When a delivery is attempted: Standard Webhooks' suggested schedule, each delay counted from the
 * attempt before it (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h): eight attempts over about
 * 27 h 35 min, past the day the issue asks for. Due retries are picked up by a runner every minute, so
 * the 5 s retry happens within the minute.
 */
export const RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

/** Attempts in all: the first, then one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** When attempt `attempt + 1` is due after attempt number `attempt` (1-based) failed at `at`; null after the last. */
export const nextAttemptAt = (attempt: number, at: number): number | null => {
  const delay = RETRY_DELAYS_SECONDS[attempt - 1];
  return delay === undefined ? null : at + delay * 1000;
};

/** Each attempt answered 2xx succeeded; anything else (a redirect included: none is followed) failed. */
export const succeeded = (status: number | null): boolean => status !== null && status >= 200 && status < 300;
