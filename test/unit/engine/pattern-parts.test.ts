/**
 * The engine writes a record's index entries from its type's declared patterns, whose parts may name
 * alternatives (`{rels.scheme|rels.location}`: the first the record holds) and be written as a sort keeps
 * its values (`{attributes.signed_in_at:folded}`). Site attendances' entries were written by a hook of
 * their own (`indexKeys`) until their patterns could say this; proven here: the patterns write the keys
 * the hook wrote, byte for byte, for every shape of attendance, so stored entries need no migration.
 */
import { describe, expect, it } from 'vitest';
import { siteAttendances } from '#functions/site-attendances/definitions';
import { siteOf } from '#functions/site-attendances/rules/sites';
import { declareAccessPatterns, fill, partsOf } from '#shared/data/access-patterns';
import { sortKeyText } from '#shared/data/collation';
import type { StoredResource } from '#shared/data/stored-resource';
import { changedRecord, newRecord } from '#shared/engine/record-writes';

/** The old rule, as the declaration's `indexKeys` hook wrote it (1406385): the expected side. */
const hookKeys = (record: StoredResource) => {
  const [site, person] = [siteOf(record), record.rels.person];
  const signedIn = sortKeyText(record.attributes.signed_in_at);
  return {
    lsi2: site ? `${site}#${signedIn}` : undefined,
    gsi2pk: typeof person === 'string' ? `ATTENDANCES#${record.org_id}#${person}` : undefined,
    gsi2sk: typeof person === 'string' ? `${signedIn}#${record.id}` : undefined,
  };
};

const ORG = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const SCHEME = '019c0000-0000-7000-8000-00000000000a';
const LOCATION = '019c0000-0000-7000-8000-00000000000b';
const PERSON = '019c0000-0000-7000-8000-00000000000c';
const GATE = '019c0000-0000-7000-8000-00000000000d';

/** An attendance as the sign-in writes it (sign-in-writes.ts), through the engine's `newRecord`. */
const signedIn = (at: string, rels: Record<string, string | null>, guest: { name: string } | null = null) =>
  newRecord(
    siteAttendances,
    ORG,
    {
      attributes: {
        method_in: 'kiosk',
        attendee_kind: guest ? 'visitor' : 'worker',
        guest,
        employer: null,
        signed_in_at: at,
        signed_out_at: null,
        method_out: null,
        override: null,
        corrections: [],
      },
      meta: { on_site: true },
      rels: { signed_in_by: GATE, ...rels },
    },
    new Date(at),
  );

const signedOut = (attendance: StoredResource, at: string) =>
  changedRecord(
    siteAttendances,
    attendance,
    {
      attributes: { signed_out_at: at, method_out: 'manual' },
      meta: { on_site: false },
      rels: { signed_out_by: GATE },
    },
    new Date(at),
  );

/** A correction of the sign-in (corrections.ts): the entries follow the corrected time. */
const corrected = (attendance: StoredResource, to: string) =>
  changedRecord(siteAttendances, attendance, {
    attributes: {
      signed_in_at: to,
      corrections: [
        {
          field: 'signed_in_at',
          from: attendance.attributes.signed_in_at,
          to,
          reason: 'late',
          by: GATE,
          at: to,
        },
      ],
    },
  });

const ENTRY_KEYS = ['lsi2', 'gsi2pk', 'gsi2sk'] as const;

const expectHookKeys = (record: StoredResource) => {
  const expected = hookKeys(record);
  for (const key of ENTRY_KEYS) {
    if (expected[key] === undefined) expect(record, key).not.toHaveProperty(key);
    else expect(record[key], key).toBe(expected[key]);
  }
};

describe('site attendances keep the index entries the hook wrote (no migration)', () => {
  const person = signedIn('2027-03-02T07:45:12.345Z', { scheme: SCHEME, person: PERSON });
  const shapes: Record<string, StoredResource> = {
    'a person at a scheme': person,
    'a person at a location': signedIn('2027-03-02T08:00:00.000Z', { location: LOCATION, person: PERSON }),
    'a guest (no person)': signedIn('2027-03-02T09:30:00.000Z', { scheme: SCHEME }, { name: 'A Visitor' }),
    'a guest at a location, the scheme named empty': signedIn(
      '2027-03-03T10:00:00.000Z',
      { scheme: null, location: LOCATION },
      { name: 'A Courier' },
    ),
    'before the buckets (the former partition)': signedIn('2026-11-30T23:59:59.999Z', {
      location: LOCATION,
      person: PERSON,
    }),
    'signed out': signedOut(person, '2027-03-02T17:00:00.000Z'),
    'corrected, then signed out': signedOut(
      corrected(person, '2027-03-02T07:30:00.000Z'),
      '2027-03-02T16:00:00.000Z',
    ),
  };

  for (const [shape, record] of Object.entries(shapes)) {
    it(`${shape}: its site and person entries are the hook's`, () => expectHookKeys(record));
  }

  it('the site is the scheme, else the location; the sign-in is folded as its sort keeps it', () => {
    expect(person.lsi2).toBe(`${SCHEME}#2027-03-02t07:45:12.345z`);
    expect(shapes['a person at a location']?.lsi2).toBe(`${LOCATION}#2027-03-02t08:00:00.000z`);
    expect(person.gsi2pk).toBe(`ATTENDANCES#${ORG}#${PERSON}`);
    expect(person.gsi2sk).toBe(`2027-03-02t07:45:12.345z#${person.id}`);
    expect(corrected(person, '2027-03-02T07:30:00.000Z').lsi2).toBe(`${SCHEME}#2027-03-02t07:30:00.000z`);
  });

  it('an attendance that loses its person loses its person entry (a sparse index)', () => {
    const unlinked = changedRecord(siteAttendances, person, { rels: { person: null } });
    expect(unlinked).not.toHaveProperty('gsi2pk');
    expect(unlinked).not.toHaveProperty('gsi2sk');
    expectHookKeys(unlinked);
  });
});

describe('a pattern part names its value, and how it is written', () => {
  it('alternatives and folding are part of the syntax: named once, folded when filled', () => {
    const sk = '{rels.scheme|rels.location}#{attributes.signed_in_at:folded}';
    expect(partsOf({ index: 'lsi2', pk: 'ORG#{org_id}#things', sk })).toEqual([
      'org_id',
      'rels.scheme|rels.location',
      'attributes.signed_in_at',
    ]);
    expect(fill(sk, { 'rels.scheme|rels.location': 'Site', 'attributes.signed_in_at': 'T1Z' })).toBe(
      'Site#t1z',
    );
  });

  it('a way of writing a part other than :folded is refused as it is declared, not taken for a name', () => {
    const refused = "{attributes.name:upper}: a part's one way of writing is :folded";
    expect(() => fill('{attributes.name:upper}', { 'attributes.name': 'a' })).toThrow(refused);
    expect(() =>
      declareAccessPatterns('pattern-parts-test', {
        shouted: { index: 'gsi2', pk: 'ORG#{org_id}#things', sk: '{attributes.name:upper}#{id}' },
      }),
    ).toThrow(refused);
  });
});
