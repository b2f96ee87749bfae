/**
 * Issue 43, digests: when a digest window ends (`rules/digest-windows.ts`). Hourly on the next whole hour
 * (UTC); daily at the user's time on the organisation's wall clock, on both sides of a change of the clocks.
 */
import { describe, expect, it } from 'vitest';
import { windowEnd } from '#functions/notifications/rules/digest-windows';

const hourly = (written: string) =>
  new Date(windowEnd(Date.parse(written), { cadence: 'hourly' })).toISOString();
const daily = (written: string, at: string, zone: string) =>
  new Date(windowEnd(Date.parse(written), { cadence: 'daily', at, zone })).toISOString();

describe('an hourly window', () => {
  it('ends on the next whole hour, and an envelope written on the hour goes in the next one', () => {
    expect(hourly('2026-11-28T06:00:00.001Z')).toBe('2026-11-28T07:00:00.000Z');
    expect(hourly('2026-11-28T06:59:59.999Z')).toBe('2026-11-28T07:00:00.000Z');
    expect(hourly('2026-11-28T07:00:00.000Z')).toBe('2026-11-28T08:00:00.000Z');
  });
});

describe('a daily window ends at the daily time on the organisation’s clock', () => {
  it('Europe/London across the October change: 08:00 is 07:00Z in summer time, 08:00Z after it', () => {
    expect(daily('2026-10-24T06:00:00Z', '08:00', 'Europe/London')).toBe('2026-10-24T07:00:00.000Z');
    // After Saturday's 08:00 BST: Sunday's 08:00, the clocks gone back overnight.
    expect(daily('2026-10-24T12:00:00Z', '08:00', 'Europe/London')).toBe('2026-10-25T08:00:00.000Z');
  });

  it('America/New_York across the March change, and an evening time after midnight UTC', () => {
    expect(daily('2026-03-07T20:00:00Z', '07:30', 'America/New_York')).toBe('2026-03-08T11:30:00.000Z');
    expect(daily('2026-03-06T20:00:00Z', '07:30', 'America/New_York')).toBe('2026-03-07T12:30:00.000Z');
    expect(daily('2026-11-28T02:00:00Z', '22:00', 'America/New_York')).toBe('2026-11-28T03:00:00.000Z');
  });

  it('a time the clocks skip that day goes as many minutes after the gap (01:30 in London’s spring-forward is 02:30 BST)', () => {
    expect(daily('2027-03-27T12:00:00Z', '01:30', 'Europe/London')).toBe('2027-03-28T01:30:00.000Z');
  });
});
