/**
 * Recurring entries' rules (RFC 5545 with an IANA zone, expanded by rrule-temporal): the wall-clock time
 * holds across both DST changes, whatever zone the host runs in, and an occurrence at a local time that a
 * spring-forward skips is left out, as RFC 5545 says.
 */
import { describe, expect, it } from 'vitest';
import { checkRecurrence, nextOccurrence } from '#shared/data/recurrence';

const DAILY_7AM = (start: string) => `DTSTART;TZID=Europe/London:${start}\nRRULE:FREQ=DAILY`;
const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
/** The occurrences from `from` on, `count` of them. */
const occurrences = (rule: string, from: string, count: number) => {
  const out: (string | null)[] = [];
  let at = Date.parse(from);
  for (let i = 0; i < count; i++) {
    const next = nextOccurrence(rule, at);
    out.push(iso(next));
    if (next === null) break;
    at = next;
  }
  return out;
};

describe('recurrence', () => {
  it('daily 07:00 Europe/London is 07:00Z before the March change and 06:00Z after it', () => {
    expect(occurrences(DAILY_7AM('20260320T070000'), '2026-03-28T00:00:00Z', 3)).toEqual([
      '2026-03-28T07:00:00.000Z',
      '2026-03-29T06:00:00.000Z',
      '2026-03-30T06:00:00.000Z',
    ]);
  });

  it('daily 07:00 Europe/London is 06:00Z before the October change and 07:00Z after it', () => {
    expect(occurrences(DAILY_7AM('20261020T070000'), '2026-10-24T00:00:00Z', 3)).toEqual([
      '2026-10-24T06:00:00.000Z',
      '2026-10-25T07:00:00.000Z',
      '2026-10-26T07:00:00.000Z',
    ]);
  });

  it('an occurrence at a local time the spring-forward skips (01:30 on 29 March in London) is left out', () => {
    expect(occurrences(DAILY_7AM('20260327T013000'), '2026-03-28T00:00:00Z', 2)).toEqual([
      '2026-03-28T01:30:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
  });

  it('a rule with a COUNT ends: no occurrence after its last', () => {
    const rule = 'DTSTART;TZID=Europe/London:20261101T070000\nRRULE:FREQ=DAILY;COUNT=2';
    expect(occurrences(rule, '2026-11-01T00:00:00Z', 3)).toEqual([
      '2026-11-01T07:00:00.000Z',
      '2026-11-02T07:00:00.000Z',
      null,
    ]);
  });

  it('refuses a rule with no time zone, an unknown zone, or no RRULE', () => {
    expect(() => checkRecurrence('DTSTART:20261101T070000\nRRULE:FREQ=DAILY')).toThrow(/TZID/);
    expect(() => checkRecurrence('DTSTART;TZID=Mars/Olympus:20261101T070000\nRRULE:FREQ=DAILY')).toThrow();
    expect(() => checkRecurrence('DTSTART;TZID=Europe/London:20261101T070000')).toThrow(/RRULE/);
  });
});
