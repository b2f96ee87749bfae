/**
 * The bench's and the tests' sequential round trips (`test/support/round-trips.ts`): the calls a request
 * waits through one after another, not the calls it makes.
 */
import { describe, expect, it } from 'vitest';
import { sequentialTrips } from '../../support/round-trips';

const call = (started: number, ended: number) => ({ started, ended });

describe('sequential round trips', () => {
  it('calls one after another are one trip each', () => {
    expect(sequentialTrips([call(0, 5), call(6, 9), call(10, 12)])).toBe(3);
  });

  it('calls made together are one trip, whatever order they end in', () => {
    expect(sequentialTrips([call(0, 9), call(0, 4), call(1, 6)])).toBe(1);
  });

  it('a call waits for those that ended before it started, in any order listed', () => {
    // The credentials, then the Query and the parent's read together: two trips, three calls.
    expect(sequentialTrips([call(6, 12), call(0, 5), call(6, 8)])).toBe(2);
    // Listed last to first, three calls one after another are still three trips.
    expect(sequentialTrips([call(12, 14), call(6, 10), call(0, 5)])).toBe(3);
    // A call after the shorter of two parallel calls is on the second trip, not the third.
    expect(sequentialTrips([call(0, 10), call(0, 2), call(3, 5)])).toBe(2);
  });

  it('no call is no trip', () => {
    expect(sequentialTrips([])).toBe(0);
  });
});
