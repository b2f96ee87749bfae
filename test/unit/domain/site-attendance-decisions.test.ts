/**
 * The site attendances' bespoke writes decide in pure rules (defineWrite's `decide`), so each refusal is
 * proven here without a table: what a sign-in names, the gate's admission, and a correction of times.
 */
import { describe, expect, it } from 'vitest';
import { corrected } from '#functions/site-attendances/rules/corrections';
import { admitted, type GateFacts, namedAt } from '#functions/site-attendances/rules/sign-in';
import { ConflictError, ForbiddenError, ValidationError } from '#shared/jsonapi/errors';

const now = new Date('2026-11-23T09:00:00Z');
const pointerOf = (act: () => unknown) => {
  try {
    act();
  } catch (error) {
    if (error instanceof ValidationError) return error.source?.pointer;
    throw error;
  }
  throw new Error('not refused');
};

describe('a sign-in names one site, and a person or a guest', () => {
  it('a scheme and a location both, or neither, is 400 at the relationships', () => {
    expect(
      pointerOf(() => namedAt({ scheme: 's', location: 'l', person: 'p' }, undefined, false, false)),
    ).toBe('/data/relationships');
    expect(pointerOf(() => namedAt({ person: 'p' }, undefined, false, false))).toBe('/data/relationships');
  });

  it('nobody named and no guest is 400 at the guest; an override needs its permission (403)', () => {
    expect(pointerOf(() => namedAt({ location: 'l' }, undefined, false, false))).toBe(
      '/data/attributes/guest',
    );
    expect(() => namedAt({ location: 'l', person: 'p' }, undefined, true, false)).toThrow(ForbiddenError);
    expect(namedAt({ scheme: 's', person: 'p' }, undefined, true, true)).toEqual({
      site: { id: 's', isScheme: true },
      personId: 'p',
    });
  });
});

describe('the gate admits from what was read', () => {
  const facts = (overrides: Partial<GateFacts> = {}): GateFacts => ({
    named: { site: { id: 'l', isScheme: false }, personId: 'p' },
    siteFound: true,
    personFound: true,
    awards: [],
    inductions: [],
    specification: null,
    missingQualification: 'warn',
    ...overrides,
  });

  it('a site or a person not found is 400 at its relationship', () => {
    expect(pointerOf(() => admitted(facts({ siteFound: false }), 'worker', false, now))).toBe(
      '/data/relationships/location/data',
    );
    expect(pointerOf(() => admitted(facts({ personFound: false }), 'worker', false, now))).toBe(
      '/data/relationships/person/data',
    );
  });

  it('a missing induction is 409 unless overridden; a visitor is not checked', () => {
    expect(() => admitted(facts({ inductions: ['t1'] }), 'worker', false, now)).toThrow(ConflictError);
    expect(admitted(facts({ inductions: ['t1'] }), 'worker', true, now).outcome).toBe('overridden');
    expect(admitted(facts({ inductions: ['t1'] }), 'visitor', false, now).outcome).toBe('not_checked');
  });
});

describe('a correction changes times, keeping what each replaced', () => {
  const open = { signed_in_at: '2026-11-23T07:00:00.000Z', signed_out_at: null, corrections: [] };

  it('an open attendance’s end is 409; an unchanged time, an end before the start or a start ahead is 400', () => {
    expect(() => corrected(open, { signed_out_at: '2026-11-23T08:00:00.000Z' }, 'r', 'u', now)).toThrow(
      ConflictError,
    );
    expect(pointerOf(() => corrected(open, { signed_in_at: open.signed_in_at }, 'r', 'u', now))).toBe(
      '/data/attributes',
    );
    const ended = { ...open, signed_out_at: '2026-11-23T08:00:00.000Z' };
    expect(
      pointerOf(() => corrected(ended, { signed_out_at: '2026-11-23T06:00:00.000Z' }, 'r', 'u', now)),
    ).toBe('/data/attributes/signed_out_at');
    expect(
      pointerOf(() => corrected(open, { signed_in_at: '2026-11-24T07:00:00.000Z' }, 'r', 'u', now)),
    ).toBe('/data/attributes/signed_in_at');
  });

  it('each changed time is kept with its old value, who, when and why', () => {
    const changed = corrected(open, { signed_in_at: '2026-11-23T06:30:00.000Z' }, 'kiosk clock', 'u1', now);
    expect(changed.corrections).toEqual([
      {
        field: 'signed_in_at',
        from: '2026-11-23T07:00:00.000Z',
        to: '2026-11-23T06:30:00.000Z',
        reason: 'kiosk clock',
        by: 'u1',
        at: now.toISOString(),
      },
    ]);
  });
});
