/**
 * Issue 22's pure rules: an award's expiry from its type's validity period, its expiry warnings (30, 7, 0
 * days before), what it proves on a day, a specification's rule evaluated part by part, the gate's checks,
 * and a site's closing time and day in its time zone (summer time included).
 */
import { describe, expect, it } from 'vitest';
import { qualificationAwards } from '#functions/qualifications/definitions';
import {
  type AwardEntry,
  countsOn,
  deciderRefusal,
  expiryAfter,
  nextWarning,
} from '#functions/qualifications/rules/awards';
import { evaluate, ruleSchema } from '#functions/qualifications/rules/rules';
import { gateChecks } from '#functions/site-attendances/rules/gate';
import { dayBounds, nextClosing } from '#functions/site-attendances/rules/site-day';
import { z } from '#shared/jsonapi/schema-builders';

const DAY = 86_400_000;
const award = (type: string, overrides: Partial<AwardEntry> = {}): AwardEntry => ({
  id: `award-${type}`,
  qualification_type: type,
  status: 'valid',
  issued_at: '2026-01-10',
  expires_at: '2027-01-10',
  number: null,
  ...overrides,
});

describe('an award’s expiry and what it proves', () => {
  it('years and months move the calendar (29 February + P1Y is 28 February); weeks and days add', () => {
    expect(expiryAfter('2024-02-29', 'P1Y')).toBe('2025-02-28');
    expect(expiryAfter('2026-01-31', 'P1M')).toBe('2026-02-28');
    expect(expiryAfter('2026-01-10', 'P18M')).toBe('2027-07-10');
    expect(expiryAfter('2026-01-10', 'P2W')).toBe('2026-01-24');
    expect(expiryAfter('2026-12-25', 'P10D')).toBe('2027-01-04');
  });

  it('counts from its issue date up to the day before it expires, once approved (valid, or expired since)', () => {
    expect(countsOn(award('a'), '2026-01-09')).toBe(false);
    expect(countsOn(award('a'), '2026-01-10')).toBe(true);
    expect(countsOn(award('a'), '2027-01-09')).toBe(true);
    expect(countsOn(award('a'), '2027-01-10')).toBe(false);
    expect(countsOn(award('a', { status: 'expired' }), '2026-06-01')).toBe(true);
    for (const status of ['pending_approval', 'rejected', 'revoked'] as const)
      expect(countsOn(award('a', { status }), '2026-06-01')).toBe(false);
    expect(countsOn(award('a', { expires_at: null }), '2099-01-01')).toBe(true);
  });

  it('moves: approve and reject from pending only; revoke from valid or expired; nothing from a final status', () => {
    // The moves are the award's declared machine's: the state each verb reaches from `from`, or null.
    const awardMove = (verb: string, from: string) => {
      const move = qualificationAwards.lifecycle.transitions[verb];
      return move?.from.includes(from) ? move.to : null;
    };
    expect(awardMove('approve', 'pending_approval')).toBe('valid');
    expect(awardMove('reject', 'pending_approval')).toBe('rejected');
    expect(awardMove('revoke', 'expired')).toBe('revoked');
    expect(awardMove('approve', 'valid')).toBeNull();
    expect(awardMove('revoke', 'rejected')).toBeNull();
    expect(awardMove('approve', 'revoked')).toBeNull();
  });

  it('four eyes: the award’s own person never approves or rejects it; anyone else (and a revocation) may', () => {
    expect(deciderRefusal('approved', 'p1', 'p1')).toMatch(/own award/);
    expect(deciderRefusal('rejected', 'p1', 'p1')).toMatch(/own award/);
    expect(deciderRefusal('approved', 'p1', 'p2')).toBeNull();
    expect(deciderRefusal('approved', 'p1', null)).toBeNull();
    expect(deciderRefusal('revoked', 'p1', 'p1')).toBeNull();
  });

  it('warnings fall 30, 7 and 0 days before expiry at the start of the UTC day; past ones are skipped, bar the last', () => {
    const expiry = Date.parse('2027-01-10T00:00:00Z');
    expect(nextWarning('2027-01-10', expiry - 100 * DAY)).toEqual({ at: expiry - 30 * DAY, days: 30 });
    expect(nextWarning('2027-01-10', expiry - 30 * DAY, 30)).toEqual({ at: expiry - 7 * DAY, days: 7 });
    expect(nextWarning('2027-01-10', expiry - 7 * DAY, 7)).toEqual({ at: expiry, days: 0 });
    expect(nextWarning('2027-01-10', expiry, 0)).toBeNull();
    expect(nextWarning('2027-01-10', expiry - 20 * DAY)).toEqual({ at: expiry - 7 * DAY, days: 7 });
    // Approved after its expiry: expired at once.
    expect(nextWarning('2027-01-10', expiry + 5 * DAY)).toEqual({ at: expiry, days: 0 });
  });
});

describe('a specification’s rule', () => {
  const rule = {
    all_of: [
      { qualification_type: 'ind' },
      { any_of: [{ qualification_type: 'cscs' }, { qualification_type: 'fa' }] },
    ],
  };

  it('is met part by part, each type with the awards that prove it', () => {
    const result = evaluate(rule, [award('ind'), award('fa', { expires_at: '2026-03-01' })], '2026-06-01');
    expect(result).toEqual({
      all_of: [
        {
          qualification_type: 'ind',
          met: true,
          awards: [{ id: 'award-ind', number: null, issued_at: '2026-01-10', expires_at: '2027-01-10' }],
        },
        {
          any_of: [
            { qualification_type: 'cscs', met: false, awards: [] },
            { qualification_type: 'fa', met: false, awards: [] },
          ],
          met: false,
        },
      ],
      met: false,
    });
    expect(evaluate(rule, [award('ind'), award('cscs')], '2026-06-01').met).toBe(true);
  });

  it('nests at most 4 levels, lists 1 to 20 parts, names at most 50 types', () => {
    const leaf = { qualification_type: '01a21060-a5a3-73d8-923d-070860651c6d' };
    expect(ruleSchema(z).safeParse({ all_of: [{ any_of: [{ all_of: [leaf] }] }] }).success).toBe(true);
    expect(
      ruleSchema(z).safeParse({ all_of: [{ any_of: [{ all_of: [{ any_of: [leaf] }] }] }] }).success,
    ).toBe(false);
    expect(ruleSchema(z).safeParse({ all_of: [] }).success).toBe(false);
    expect(ruleSchema(z).safeParse({ all_of: [leaf], any_of: [leaf] }).success).toBe(false);
    const types = (from: number) =>
      Array.from({ length: 20 }, (_, i) => ({
        qualification_type: `01a21060-a5a3-73d8-923d-${String(from + i).padStart(12, '0')}`,
      }));
    expect(ruleSchema(z).safeParse({ any_of: [{ all_of: types(0) }, { all_of: types(20) }] }).success).toBe(
      true,
    );
    const sixty = { any_of: [{ all_of: types(0) }, { all_of: types(20) }, { all_of: types(40) }] };
    expect(ruleSchema(z).safeParse(sixty).success).toBe(false);
  });
});

describe('the gate', () => {
  const rules = {
    inductions: ['ind'],
    specification: { id: 'spec', rule: { qualification_type: 'cscs' } },
    missingQualification: 'warn' as const,
  };

  it('a missing induction refuses (unless overridden); a missing qualification warns or refuses as the site says', () => {
    expect(gateChecks(rules, [], '2026-06-01', false).outcome).toBe('refused');
    expect(gateChecks(rules, [], '2026-06-01', true).outcome).toBe('overridden');
    expect(gateChecks(rules, [award('ind')], '2026-06-01', false).outcome).toBe('warned');
    expect(
      gateChecks({ ...rules, missingQualification: 'refuse' }, [award('ind')], '2026-06-01', false).outcome,
    ).toBe('refused');
    const passed = gateChecks(rules, [award('ind'), award('cscs')], '2026-06-01', false);
    expect(passed).toMatchObject({
      outcome: 'passed',
      missing: [],
      specification: { id: 'spec', met: true },
    });
  });

  it('an induction expired on the day is missing; a worker without an account is refused', () => {
    expect(gateChecks(rules, [award('ind')], '2027-01-10', false).missing[0]).toContain('ind');
    expect(gateChecks({ ...rules, inductions: [] }, null, '2026-06-01', false).outcome).toBe('refused');
  });
});

describe('a site’s day in its time zone', () => {
  it('closes at the next closing time after the sign-in, summer time included', () => {
    // 18:00 in London is 17:00 UTC in summer, 18:00 UTC in winter.
    expect(
      new Date(nextClosing(Date.parse('2026-07-01T08:00:00Z'), '18:00', 'Europe/London')).toISOString(),
    ).toBe('2026-07-01T17:00:00.000Z');
    expect(
      new Date(nextClosing(Date.parse('2026-12-01T08:00:00Z'), '18:00', 'Europe/London')).toISOString(),
    ).toBe('2026-12-01T18:00:00.000Z');
    // Signed in after closing: the next day's.
    expect(
      new Date(nextClosing(Date.parse('2026-12-01T19:00:00Z'), '18:00', 'Europe/London')).toISOString(),
    ).toBe('2026-12-02T18:00:00.000Z');
  });

  it('a day’s register is its local day’s bounds in UTC', () => {
    expect(dayBounds('2026-07-01', 'Europe/London')).toEqual({
      since: '2026-06-30T23:00:00.000Z',
      until: '2026-07-01T22:59:59.999Z',
    });
    expect(dayBounds('2026-03-29', 'Europe/London')).toEqual({
      since: '2026-03-29T00:00:00.000Z',
      until: '2026-03-29T22:59:59.999Z',
    });
  });
});
