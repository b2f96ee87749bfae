/**
 * Time buckets (issue 42, item 4): a bucketed type's records are found from their ids alone, its lists walk
 * the months in key order from a cursor's own, and reads whose order would run across months refuse it.
 */
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '#shared/data/ids';
import { declareTimeBuckets, firstIdOf, onlyPartition, partitionsOf } from '#shared/data/time-buckets';

const buckets = declareTimeBuckets('bucket-tests', { since: '2026-12' });
const OLD_ORG = uuidv7(Date.parse('2025-01-10T00:00:00Z'));
const YOUNG_ORG = uuidv7(Date.parse('2027-02-10T00:00:00Z'));
const NOW = Date.parse('2027-03-05T00:00:00Z');
const month = (org: string, m: string) => `ORG#${org}#bucket-tests#${m}`;
const former = (org: string) => `ORG#${org}#bucket-tests`;

describe('time buckets', () => {
  it("a record's key is its id's month from `since`, the former partition before", () => {
    const march = uuidv7(Date.parse('2027-03-01T00:00:00Z'));
    const november = uuidv7(Date.parse('2026-11-30T23:59:59Z'));
    expect(buckets.keyOf(OLD_ORG, march)).toEqual({ pk: month(OLD_ORG, '2027-03'), sk: march });
    expect(buckets.keyOf(OLD_ORG, november)).toEqual({ pk: former(OLD_ORG), sk: november });
  });

  it('an organisation older than the buckets reads its former partition and every month to now, newest first when descending', () => {
    const oldestFirst = [
      former(OLD_ORG),
      ...['2026-12', '2027-01', '2027-02', '2027-03'].map((m) => month(OLD_ORG, m)),
    ];
    expect(partitionsOf(OLD_ORG, 'bucket-tests', { now: NOW })).toEqual(oldestFirst);
    expect(partitionsOf(OLD_ORG, 'bucket-tests', { now: NOW, descending: true })).toEqual(
      [...oldestFirst].reverse(),
    );
  });

  it('an organisation younger than the buckets reads from its own month, no former partition', () => {
    expect(partitionsOf(YOUNG_ORG, 'bucket-tests', { now: NOW })).toEqual([
      month(YOUNG_ORG, '2027-02'),
      month(YOUNG_ORG, '2027-03'),
    ]);
  });

  it("a cursor resumes in its last key's month; a month outside the walk (a clock ahead) is still where it resumes", () => {
    const january = uuidv7(Date.parse('2027-01-20T00:00:00Z'));
    expect(partitionsOf(OLD_ORG, 'bucket-tests', { now: NOW, descending: true, from: january })).toEqual([
      month(OLD_ORG, '2027-01'),
      month(OLD_ORG, '2026-12'),
      former(OLD_ORG),
    ]);
    const ahead = uuidv7(Date.parse('2027-05-01T00:00:00Z'));
    expect(partitionsOf(OLD_ORG, 'bucket-tests', { now: NOW, from: ahead })).toEqual([
      month(OLD_ORG, '2027-05'),
    ]);
  });

  it('a local-index sort or a whole-partition read refuses a bucketed type; a type not bucketed has its one partition', () => {
    expect(() => partitionsOf(OLD_ORG, 'bucket-tests', { index: 'lsi1' })).toThrow(/bucketed by time/);
    expect(() => onlyPartition(OLD_ORG, 'bucket-tests')).toThrow(/bucketed by time/);
    expect(partitionsOf(OLD_ORG, 'teams', { index: 'lsi1' })).toEqual([`ORG#${OLD_ORG}#teams`]);
    expect(onlyPartition(OLD_ORG, 'teams')).toBe(`ORG#${OLD_ORG}#teams`);
  });

  it("a month's least id (the migration's selection) sorts above every id of the month before and at or below every id of its own", () => {
    const first = firstIdOf('2026-12');
    for (const at of ['2026-12-01T00:00:00.000Z', '2026-12-31T23:59:59.999Z', '2027-01-01T00:00:00.000Z'])
      expect(uuidv7(Date.parse(at)) >= first, at).toBe(true);
    for (const at of ['2026-11-30T23:59:59.999Z', '2025-12-15T00:00:00.000Z'])
      expect(uuidv7(Date.parse(at)) < first, at).toBe(true);
    expect(buckets.since).toBe('2026-12');
  });
});
