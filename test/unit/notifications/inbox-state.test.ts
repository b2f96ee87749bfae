/**
 * Issue 43, the inbox's pure rules (functions/notifications/rules/inbox-state.ts): an envelope's effective
 * marks under watermarks and generations, the counts kept by organisation × day × category, marking
 * through a position, and expiry by day of arrival.
 */
import { describe, expect, it } from 'vitest';
import {
  countName,
  countsOf,
  type EnvelopeMarks,
  effectiveMarks,
  emptyState,
  expiryOfArrival,
  firstLiveDay,
  type InboxStateItem,
  markedThrough,
  moved,
  tallyOf,
} from '#functions/notifications/rules/inbox-state';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 28, 12);

/** A UUIDv7 arrival position minted at `ms`, the `n`th of that millisecond. */
const arrivalAt = (ms: number, n = 0) => {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-${n.toString(16).padStart(12, '0')}`;
};

const envelope = (over: Partial<EnvelopeMarks> = {}): EnvelopeMarks => ({
  org_id: 'org-a',
  arrival: arrivalAt(NOW),
  category: 'people',
  state: 'unseen',
  saved: false,
  archived: false,
  marked: { seen: 0, read: 0, archived: 0 },
  ...over,
});

/** The state item as the writes keep it: each envelope's tally added under its count name. */
const counted = (envelopes: readonly EnvelopeMarks[], state = emptyState()): InboxStateItem => ({
  ...state,
  counts: envelopes.reduce(
    (counts, e) => moved(counts, countName(e), tallyOf(e, state), 1, NOW),
    state.counts,
  ),
});

describe('effective state under watermarks and generations', () => {
  it('an envelope with no watermark over it is what its own marks say', () => {
    expect(effectiveMarks(envelope(), emptyState())).toEqual({ state: 'unseen', archived: false });
    expect(effectiveMarks(envelope({ state: 'seen' }), emptyState())).toEqual({
      state: 'seen',
      archived: false,
    });
  });

  it('archiving reads and sees an envelope; reading sees it', () => {
    expect(effectiveMarks(envelope({ archived: true }), emptyState())).toEqual({
      state: 'read',
      archived: true,
    });
    expect(effectiveMarks(envelope({ state: 'read' }), emptyState()).state).toBe('read');
  });

  it('a watermark marks what arrived at or below it, not what arrived after it', () => {
    const through = arrivalAt(NOW, 5);
    const state = markedThrough(emptyState(), 'read', through, [], NOW);
    expect(effectiveMarks(envelope({ arrival: arrivalAt(NOW, 5) }), state).state).toBe('read');
    expect(effectiveMarks(envelope({ arrival: arrivalAt(NOW - DAY) }), state).state).toBe('read');
    expect(effectiveMarks(envelope({ arrival: arrivalAt(NOW, 6) }), state).state).toBe('unseen');
  });

  it('an own mark written in the current generation wins over the watermark ("unread" after "mark all read")', () => {
    const state = markedThrough(emptyState(), 'read', arrivalAt(NOW, 5), [], NOW);
    const unreadAgain = envelope({ state: 'seen', marked: { seen: 0, read: 1, archived: 0 } });
    expect(effectiveMarks(unreadAgain, state).state).toBe('seen');
    // The same own mark from the generation before the watermark moved does not: the watermark reads it.
    const older = envelope({ state: 'seen', marked: { seen: 0, read: 0, archived: 0 } });
    expect(effectiveMarks(older, state).state).toBe('read');
  });

  it('a watermark never moves back: marking through an older position re-applies the current one', () => {
    const once = markedThrough(emptyState(), 'seen', arrivalAt(NOW, 9), [], NOW);
    const again = markedThrough(once, 'seen', arrivalAt(NOW - DAY), [], NOW);
    expect(again.watermarks.seen).toEqual({ through: arrivalAt(NOW, 9), generation: 2 });
    expect(again.version).toBe(once.version + 1);
  });
});

describe('counts by organisation × day × category', () => {
  it('counts unseen and unread per category, summed over the caller’s organisations only', () => {
    const state = counted([
      envelope(),
      envelope({ arrival: arrivalAt(NOW, 1), state: 'seen' }),
      envelope({ arrival: arrivalAt(NOW, 2), category: 'safety' }),
      envelope({ arrival: arrivalAt(NOW, 3), org_id: 'org-b' }),
    ]);
    expect(countsOf(state, new Set(['org-a']), NOW)).toEqual({
      unseen: 2,
      unread: 3,
      categories: { people: { unseen: 1, unread: 2 }, safety: { unseen: 1, unread: 1 } },
    });
    expect(countsOf(state, new Set(['org-a', 'org-b']), NOW).unseen).toBe(3);
    expect(countsOf(state, new Set(), NOW)).toEqual({ unseen: 0, unread: 0, categories: {} });
  });

  it('names a count by organisation, UTC day of arrival, category, and kept or saved', () => {
    expect(countName(envelope())).toBe('org-a#2026-11-28#people#kept');
    expect(countName(envelope({ saved: true, category: 'safety' }))).toBe('org-a#2026-11-28#safety#saved');
  });

  it('a count that reaches zero leaves the state item', () => {
    const e = envelope();
    const state = counted([e]);
    expect(moved(state.counts, countName(e), tallyOf(e, state), -1, NOW)).toEqual({});
  });
});

describe('marking through a position', () => {
  it('"mark all read" zeroes every count at and below it in one state, whatever the inbox holds', () => {
    const envelopes = [
      envelope({ arrival: arrivalAt(NOW - 3 * DAY) }),
      envelope(),
      envelope({ saved: true }),
    ];
    const state = markedThrough(counted(envelopes), 'read', arrivalAt(NOW, 99), [], NOW);
    expect(countsOf(state, new Set(['org-a']), NOW)).toEqual({ unseen: 0, unread: 0, categories: {} });
    expect(state.watermarks.read.generation).toBe(1);
  });

  it('"mark all seen" zeroes unseen and keeps unread', () => {
    const state = markedThrough(
      counted([envelope(), envelope({ arrival: arrivalAt(NOW, 1) })]),
      'seen',
      arrivalAt(NOW, 1),
      [],
      NOW,
    );
    expect(countsOf(state, new Set(['org-a']), NOW)).toMatchObject({ unseen: 0, unread: 2 });
  });

  it('the watermark’s own day is counted again from the envelopes that arrived after the position', () => {
    const below = envelope({ arrival: arrivalAt(NOW, 1) });
    const above = envelope({ arrival: arrivalAt(NOW, 2), category: 'safety' });
    const state = markedThrough(counted([below, above]), 'read', below.arrival, [below, above], NOW);
    expect(countsOf(state, new Set(['org-a']), NOW)).toEqual({
      unseen: 1,
      unread: 1,
      categories: { safety: { unseen: 1, unread: 1 } },
    });
  });

  it('a later day than the watermark’s keeps its counts untouched', () => {
    const later = envelope({ arrival: arrivalAt(NOW + DAY) });
    const state = markedThrough(counted([envelope(), later]), 'read', arrivalAt(NOW, 9), [], NOW);
    expect(state.counts[countName(later)]).toEqual({ unseen: 1, unread: 1 });
  });
});

describe('expiry by day of arrival', () => {
  it('an envelope expires at the end of its day of arrival plus 90 days (its TTL)', () => {
    expect(expiryOfArrival(arrivalAt(NOW))).toBe(Date.UTC(2027, 1, 27) / 1000);
    expect(expiryOfArrival(arrivalAt(Date.UTC(2026, 10, 28)))).toBe(expiryOfArrival(arrivalAt(NOW)));
  });

  it('a kept day leaves the counts at that moment, with no write; a saved one never does', () => {
    const kept = envelope();
    const saved = envelope({ arrival: arrivalAt(NOW, 1), saved: true });
    const state = counted([kept, saved]);
    const lastLive = Date.UTC(2027, 1, 26, 23, 59, 59);
    expect(countsOf(state, new Set(['org-a']), lastLive).unseen).toBe(2);
    expect(countsOf(state, new Set(['org-a']), lastLive + 1000).unseen).toBe(1);
    expect(expiryOfArrival(kept.arrival) * 1000).toBe(lastLive + 1000);
  });

  it('the first live day is 90 days before today, and moving a count prunes the days before it', () => {
    expect(firstLiveDay(NOW)).toBe('2026-08-30');
    const old = envelope({ arrival: arrivalAt(NOW - 91 * DAY) });
    const counts = { [countName(old)]: { unseen: 1, unread: 1 } };
    expect(moved(counts, countName(envelope()), { unseen: 1, unread: 1 }, 1, NOW)).toEqual({
      [countName(envelope())]: { unseen: 1, unread: 1 },
    });
  });
});
