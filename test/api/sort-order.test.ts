/**
 * Issue 42, item 8: one sort order on every path a list can take. Properties sort by name through their
 * name index (`lsi1`), through the merge of two organisations' index pages (a caller in both), and in
 * memory (a bounding box reads the geohash index and sorts what it found). Names whose case, accents,
 * digits and punctuation order differently by locale and by code point come back in the same order every
 * way: the index's, case-folded text in code point order (shared/data/collation.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceAccountClient } from '../../infra/local/records';
import { type ApiResponse, startTestApi, type TestApi } from '../support/api';
import { idsByCursor } from '../support/cursor-walk';
import { newTenant } from '../support/tenants';

let api: TestApi;
let one: string;
let both: string;
/** Every property made, by id: its name. */
const named = new Map<string, string>();

/** Spelled so a locale's order (accents as their letter, punctuation first) and code point order disagree. */
const NAMES = {
  a: ['zebra', 'École', 'eagle', '_draft', '1st', '~tilde', 'Alpha', 'alpha 2'],
  b: ['alpha-2', 'alpha_2', 'Ørsted', 'ostrich', '10 Downing', '9 Elms', 'mañana', 'MANOR'],
};

/** A box around every property made: the in-memory path. */
const BOX = 'filter[location.box.bottom_left]=51,-1&filter[location.box.top_right]=52,1';

/** The index's order, stated without the code under test: case-folded, compared by UTF-16 unit (all BMP). */
const byIndexOrder = (names: string[]) =>
  [...names].sort((x, y) =>
    x.toLowerCase() < y.toLowerCase() ? -1 : x.toLowerCase() > y.toLowerCase() ? 1 : 0,
  );

const namesOf = (res: ApiResponse) => {
  expect(res.status, res.text).toBe(200);
  return (res.body.data as { attributes: { name: string } }[]).map((p) => p.attributes.name);
};

beforeAll(async () => {
  api = await startTestApi();
  const [a, b] = await Promise.all([newTenant('Sort Order A', 0), newTenant('Sort Order B', 0)]);
  const client = await createServiceAccountClient('Sort order both', [
    { org_id: a.org.id, role: 'viewer' },
    { org_id: b.org.id, role: 'viewer' },
  ]);
  const [adminA, adminB] = await Promise.all([api.token(a.admin), api.token(b.admin)]);
  [one, both] = await Promise.all([api.token(a.viewer), api.token(client)]);
  for (const [tenant, token, names] of [
    [a, adminA, NAMES.a],
    [b, adminB, NAMES.b],
  ] as const) {
    for (const [i, name] of names.entries()) {
      const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/governance/properties`, {
        token,
        body: {
          data: {
            type: 'properties',
            attributes: { name, location: { latitude: 51.5, longitude: -0.5 + i * 0.05 } },
          },
        },
      });
      expect(res.status, res.text).toBe(201);
      named.set(res.body.data.id, name);
    }
  }
}, 60_000);
afterAll(() => api.close());

describe('one sort order, whichever path a list takes', () => {
  it('the names chosen order differently by locale and by code point (else this file proves nothing)', () => {
    const all = [...NAMES.a, ...NAMES.b];
    const byLocale = [...all].sort((x, y) => x.toLowerCase().localeCompare(y.toLowerCase()));
    expect(byLocale).not.toEqual(byIndexOrder(all));
  });

  it("one organisation's list sorted by name: the index's order, read from the index or sorted in memory, ascending and descending", async () => {
    const expected = byIndexOrder(NAMES.a);
    for (const [sort, order] of [
      ['name', expected],
      ['-name', [...expected].reverse()],
    ] as const) {
      const fromIndex = namesOf(await api.get(`/v3/governance/properties?sort=${sort}&page[limit]=100`, one));
      const inMemory = namesOf(
        await api.get(`/v3/governance/properties?sort=${sort}&${BOX}&page[limit]=100`, one),
      );
      expect(fromIndex).toEqual(order);
      expect(inMemory).toEqual(fromIndex);
    }
  });

  it('a caller in two organisations: the merged pages, the in-memory sort and a cursor walk agree', async () => {
    const expected = byIndexOrder([...NAMES.a, ...NAMES.b]);
    const merged = namesOf(await api.get('/v3/governance/properties?sort=name&page[limit]=100', both));
    const inMemory = namesOf(
      await api.get(`/v3/governance/properties?sort=name&${BOX}&page[limit]=100`, both),
    );
    const walked = await idsByCursor(
      api,
      '/v3/governance/properties?sort=name&page[limit]=3&page[cursor]=',
      both,
    );
    const walkedInMemory = await idsByCursor(
      api,
      `/v3/governance/properties?sort=name&${BOX}&page[limit]=3&page[cursor]=`,
      both,
    );
    expect(merged).toEqual(expected);
    expect(inMemory).toEqual(expected);
    expect(walked.map((id) => named.get(id))).toEqual(expected);
    expect(walkedInMemory.map((id) => named.get(id))).toEqual(expected);
  });
});
