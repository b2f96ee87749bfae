/**
 * Sequential round trips: the DynamoDB calls a request waits through one after another, the latency its
 * client sees, as against the calls it makes. A call that starts before every earlier one has ended runs
 * beside them and adds no trip; one that starts after a call ended waits for it. Each call's trip is one
 * more than the largest trip of the calls that ended before it started; the request's is the largest.
 */
export interface Timed {
  /** `performance.now()` when the call reached the client's stack, and when its answer came back. */
  started: number;
  ended: number;
}

export const sequentialTrips = (calls: readonly Timed[]): number => {
  // In start order, every call that ended before one started comes before it.
  const started = [...calls].sort((x, y) => x.started - y.started);
  const trips: number[] = [];
  for (const call of started) {
    const waited = started.flatMap((before, j) => (before.ended <= call.started ? [trips[j] ?? 0] : []));
    trips.push(1 + Math.max(0, ...waited));
  }
  return Math.max(0, ...trips);
};
