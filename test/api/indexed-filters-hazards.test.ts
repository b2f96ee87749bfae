/**
 * Indexed filters (issue 42, item 1) on a pre-construction information pack's site hazards: `status` and
 * `severity` (local index prefixes per pack) and `created_at.since/until` (the pack's `gsi2` ids) are each
 * answered from their access patterns, not from the pack's listed ids read whole, with the answers the
 * listed read gave; a pack's hazards never include another pack's or another organisation's; a hazard
 * retired through the API moves its status entry. Seeded with BatchWriteItem as the bench is.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preConstructionInformation, siteHazards } from '#functions/cdm/definitions';
import { preConstructionSections } from '#functions/cdm/rules/documents';
import type { StoredResource } from '#shared/data/stored-resource';
import { newRecord } from '#shared/engine/record-writes';
import { runCdmScenario } from '../scenarios/cdm';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { idsByCursor } from '../support/cursor-walk';
import { expectCursorPagesRead, measuredGet } from '../support/indexed-reads';
import { newTenant, type Tenant } from '../support/tenants';

const PER_PACK = 200;
const MINUTE = 60_000;
const START = Date.UTC(2026, 2, 1);
const SEVERITIES = ['low', 'medium', 'high'] as const;

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let token: string;
let otherToken: string;
let pack: StoredResource;
let sibling: StoredResource;
let foreign: StoredResource;
let hazards: StoredResource[];
let foreignHazards: StoredResource[];
let stray: StoredResource;

const packOf = (orgId: string, minute: number) =>
  newRecord(
    preConstructionInformation,
    orgId,
    {
      attributes: {
        sections: Object.fromEntries(Object.keys(preConstructionSections).map((n) => [n, null])),
      },
      rels: { scheme: randomUUID(), site_hazards: [] },
    },
    new Date(START - minute * MINUTE),
  );

const hazardOf = (orgId: string, packId: string, i: number) => {
  // Of each pack's (every other one), 1 in 8 retired; severities out of step with it, high the rarest.
  const k = Math.floor(i / 2);
  const retired = k % 8 === 3;
  return newRecord(
    siteHazards,
    orgId,
    {
      attributes: {
        title: `Hazard ${i}`,
        severity: k % 7 === 0 ? 'high' : SEVERITIES[k % 2],
        status: retired ? 'retired' : 'active',
        retired_at: retired ? new Date(START + (i + 1) * MINUTE).toISOString() : null,
      },
      rels: { scheme: null, pre_construction_information: packId, hazard_proposal: null },
    },
    new Date(START + i * MINUTE),
  );
};

/** The pack listing its hazards, as `withHazard` lists them. */
const listing = (parent: StoredResource, children: StoredResource[]): StoredResource => ({
  ...parent,
  rels: { ...parent.rels, site_hazards: children.map((h) => h.id) },
});

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Indexed hazards', 0), newTenant('Hazards elsewhere', 0)]);
  [token, otherToken] = await Promise.all([api.token(tenant.admin), api.token(other.admin)]);
  [pack, sibling] = [packOf(tenant.org.id, 2), packOf(tenant.org.id, 1)] as [StoredResource, StoredResource];
  foreign = packOf(other.org.id, 1);
  // Two packs of one organisation, their hazards interleaved in time; a third pack in another organisation.
  hazards = Array.from({ length: 2 * PER_PACK }, (_, i) =>
    hazardOf(tenant.org.id, (i % 2 === 0 ? pack : sibling).id, i),
  );
  foreignHazards = Array.from({ length: 40 }, (_, i) => hazardOf(other.org.id, foreign.id, i));
  // A hazard in this organisation naming the other organisation's pack: read through that pack, never.
  stray = hazardOf(tenant.org.id, foreign.id, 14);
  await bulkPutCounted([
    listing(
      pack,
      hazards.filter((h) => h.rels.pre_construction_information === pack.id),
    ),
    listing(
      sibling,
      hazards.filter((h) => h.rels.pre_construction_information === sibling.id),
    ),
    listing(foreign, foreignHazards),
    ...hazards,
    ...foreignHazards,
    stray,
  ]);
}, 60_000);
afterAll(() => api.close());

const at = (i: number) => new Date(START + i * MINUTE).toISOString();
const idsOf = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);
const hazardsOf = (parent: StoredResource) => `/v3/pre-construction-information/${parent.id}/site-hazards`;
const inPack = (keep: (h: StoredResource) => boolean) =>
  hazards.filter((h) => h.rels.pre_construction_information === pack.id && keep(h)).map((h) => h.id);
const withStatus = (status: string) => (h: StoredResource) => h.attributes.status === status;
const withSeverity = (severity: string) => (h: StoredResource) => h.attributes.severity === severity;
const since = (i: number) => (h: StoredResource) => String(h.meta.created_at) >= at(i);
const until = (i: number) => (h: StoredResource) => String(h.meta.created_at) <= at(i);

/** A list's reads besides authentication, measured on its second sending. */
const measured = (path: string) => measuredGet(api, token, path);

describe("a pack's site hazards: every filter is indexed per pack (status, severity, created_at)", () => {
  const cases = (): [string, string[]][] => [
    ['filter[status]=retired', inPack(withStatus('retired'))],
    ['filter[status]=active', inPack(withStatus('active'))],
    ['filter[severity]=high', inPack(withSeverity('high'))],
    [`filter[created_at.since]=${at(300)}`, inPack(since(300))],
    [
      `filter[created_at.since]=${at(40)}&filter[created_at.until]=${at(120)}`,
      inPack((h) => since(40)(h) && until(120)(h)),
    ],
    [
      `filter[status]=active&filter[created_at.until]=${at(150)}`,
      inPack((h) => withStatus('active')(h) && until(150)(h)),
    ],
    [
      'filter[severity]=medium&filter[status]=retired',
      inPack((h) => withSeverity('medium')(h) && withStatus('retired')(h)),
    ],
  ];

  it('answers each as the listed read did: every page and the total by offset, every match by cursor, both orders', async () => {
    // The unindexed read: every hazard the pack lists, unfiltered, which the filters must agree with.
    const listed = await idsByCursor(api, `${hazardsOf(pack)}?page[limit]=50&page[cursor]=`, token);
    expect(listed).toEqual(inPack(() => true));
    for (const [query, expected] of cases()) {
      expect(expected.length, query).toBeGreaterThan(0);
      const res = await api.get(`${hazardsOf(pack)}?${query}&page[limit]=60`, token);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(idsOf(res.body), query).toEqual(expected.slice(0, 60));
      expect(res.body.meta.pagination.counts.resources, query).toBe(expected.length);
      const second = await api.get(`${hazardsOf(pack)}?${query}&page[limit]=60&page[offset]=60`, token);
      expect(idsOf(second.body), query).toEqual(expected.slice(60, 120));
      const walked = await idsByCursor(api, `${hazardsOf(pack)}?${query}&page[limit]=7&page[cursor]=`, token);
      expect(walked, query).toEqual(expected);
      const newest = await idsByCursor(
        api,
        `${hazardsOf(pack)}?${query}&sort=-created_at&page[limit]=9&page[cursor]=`,
        token,
      );
      expect(newest, query).toEqual([...expected].reverse());
    }
  });

  it('a cursor page reads at most 1.1× the hazards it returns and the pack, in the same calls at page sizes 3 and 8', async () => {
    const paths = [
      'filter[status]=retired',
      'filter[severity]=high',
      `filter[created_at.since]=${at(200)}`,
      `filter[status]=active&filter[created_at.since]=${at(100)}`,
    ].map((query) => `${hazardsOf(pack)}?${query}`);
    await expectCursorPagesRead(measured, paths, { limits: [3, 8], full: true, besides: 1 });
  });

  it("an offset page of one status or severity reads its page, the pack and the pack's count, never the pack's other hazards", async () => {
    const cases: [string, string[]][] = [
      ['filter[status]=active', inPack(withStatus('active'))],
      ['filter[status]=retired', inPack(withStatus('retired'))],
      ['filter[severity]=high', inPack(withSeverity('high'))],
    ];
    for (const [query, matches] of cases) {
      const page = await measured(`${hazardsOf(pack)}?${query}&page[limit]=5&page[offset]=5`);
      expect(idsOf(page.body), query).toEqual(matches.slice(5, 10));
      expect(page.body.meta.pagination.counts.resources, query).toBe(matches.length);
      // Offset + limit matches (an offset is read past), the pack and its counter item.
      expect(page.items, query).toBeLessThanOrEqual(10 + 2);
    }
    // A window is no count: a count-only read of the pack's matches, never its other hazards.
    const window = inPack(since(300));
    const page = await measured(`${hazardsOf(pack)}?filter[created_at.since]=${at(300)}&page[limit]=5`);
    expect(page.body.meta.pagination.counts.resources).toBe(window.length);
    expect(page.items).toBeLessThanOrEqual(5 + window.length + 1);
  });

  it("a pack's hazards never include another pack's, nor a hazard of another organisation naming the pack", async () => {
    const ofSibling = new Set(
      hazards.filter((h) => h.rels.pre_construction_information === sibling.id).map((h) => h.id),
    );
    const queries: [string, (h: StoredResource) => boolean][] = [
      ['filter[status]=active', withStatus('active')],
      ['filter[severity]=high', withSeverity('high')],
      [`filter[created_at.since]=${at(0)}`, since(0)],
    ];
    for (const [query, keep] of queries) {
      const mine = await idsByCursor(api, `${hazardsOf(pack)}?${query}&page[limit]=50&page[cursor]=`, token);
      expect(mine, query).toEqual(inPack(keep));
      expect(
        mine.filter((id) => ofSibling.has(id)),
        query,
      ).toEqual([]);
      // The other organisation's pack, read by its own caller: its own hazards' matches, never the stray
      // hazard of this organisation that names it (active, high, in every window).
      const theirs = await api.get(`${hazardsOf(foreign)}?${query}&page[limit]=100`, otherToken);
      expect(theirs.status, theirs.text).toBe(200);
      const expected = foreignHazards.filter(keep).map((h) => h.id);
      expect(idsOf(theirs.body), query).toEqual(expected);
      expect(theirs.body.meta.pagination.counts.resources, query).toBe(expected.length);
      expect(idsOf(theirs.body), query).not.toContain(stray.id);
    }
    // And the other organisation's pack is not this caller's to read, filtered or not.
    for (const query of ['filter[status]=active', `filter[created_at.since]=${at(0)}`, 'page[limit]=5']) {
      const refused = await api.get(`${hazardsOf(foreign)}?${query}`, token);
      expect(refused.status, query).toBe(404);
    }
  });

  it('meta.features names every filter indexed, so none is refused alone', async () => {
    const res = await api.get(`${hazardsOf(pack)}?page[limit]=1`, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta.features.params.filter.indexed).toEqual(
      res.body.meta.features.params.filter.options,
    );
  });
});

describe('a hazard retired through the API moves its status entry', () => {
  it("leaves the pack's active hazards and joins its retired ones, in the same write", async () => {
    const admin = await api.token(tenant.admin);
    const s = await runCdmScenario(api, tenant.org.id, admin);
    const path = `/v3/pre-construction-information/${s.packId}/site-hazards`;
    const ids = async (query: string) => idsOf((await api.get(`${path}?${query}`, admin)).body);
    // The scenario retired the asbestos hazard; the rest of the pack's hazards are active.
    const all = await ids('page[limit]=100');
    const active = all.filter((id) => id !== s.hazards.asbestos);
    expect(active).toContain(s.hazards.excavation);
    expect(await ids('filter[status]=retired')).toEqual([s.hazards.asbestos]);
    expect(await ids('filter[status]=active')).toEqual(active);
    const retire = await api.request('PATCH', `/v3/site-hazards/${s.hazards.excavation}`, {
      token: s.tokens.client,
      body: {
        data: {
          type: 'site-hazards',
          id: s.hazards.excavation,
          attributes: { status: 'retired', retired_reason: 'Backfilled' },
        },
      },
    });
    expect(retire.status, retire.text).toBe(200);
    expect(await ids('filter[status]=active')).toEqual(active.filter((id) => id !== s.hazards.excavation));
    // The pack's counts moved with it: an offset page's totals.
    const total = async (query: string) =>
      (await api.get(`${path}?${query}`, admin)).body.meta.pagination.counts.resources;
    expect(await total('filter[status]=retired')).toBe(2);
    expect(await total('filter[status]=active')).toBe(active.length - 1);
    expect(await ids('filter[status]=retired')).toEqual([s.hazards.excavation, s.hazards.asbestos]);
    expect(await ids('filter[status]=retired&filter[severity]=high')).toEqual([s.hazards.excavation]);
  }, 120_000);
});
