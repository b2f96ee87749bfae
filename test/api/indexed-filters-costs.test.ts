/**
 * Indexed filters (issue 42, item 1) on collections that grow with the sites: cost sheets (`status`,
 * counted), cost lines (`kind`, counted; `cost_sheet`) and vehicle inventory checks (`vehicle`,
 * `inspected_at.since/until` on its sort's index, `created_at.since/until` on the id) are answered from
 * their access patterns, with the answers the partition's filter gave and reads bounded by what a page
 * returns. Seeded with BatchWriteItem as their creates would have stored them (counted-seed.ts); a filter
 * compares identifiers, so the sheets, rate codes and vehicles named are not read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vehicleInventoryChecks } from '#functions/assets/definitions';
import { costLines, costSheets } from '#functions/costs/definitions';
import { compareCollated } from '#shared/data/collation';
import type { StoredResource } from '#shared/data/stored-resource';
import { newRecord } from '#shared/engine/record-writes';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { idsByCursor } from '../support/cursor-walk';
import { expectCursorPagesRead, measuredGet } from '../support/indexed-reads';
import { newTenant, type Tenant } from '../support/tenants';

const COUNT = 240;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const START = Date.UTC(2026, 2, 1);
const SHEET_STATUSES = ['quoted', 'approved', 'quoted', 'completed'];
const SHEET = (n: number) => `019c0000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const VEHICLE = (n: number) => `019c0000-0000-7000-9000-${String(n).padStart(12, '0')}`;
const RATE = '019c0000-0000-7000-a000-000000000001';
const money = (amount: number) => ({ amount, currency: 'GBP' });

let api: TestApi;
let tenant: Tenant;
let token: string;
let sheets: StoredResource[];
let lines: StoredResource[];
let checks: StoredResource[];
const at = (i: number) => new Date(START + i * MINUTE);
/** Inspections out of creation order, so the window's order and the key's differ. */
const inspectedAt = (i: number) => new Date(START + ((i * 37) % COUNT) * HOUR).toISOString();

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Indexed costs', 0);
  token = await api.token(tenant.admin);
  const org = tenant.org.id;
  sheets = Array.from({ length: COUNT }, (_, i) =>
    newRecord(
      costSheets,
      org,
      {
        attributes: { name: `Sheet ${i}`, status: SHEET_STATUSES[i % SHEET_STATUSES.length] },
        rels: { operation: SHEET(1000 + i) },
      },
      at(i),
    ),
  );
  lines = Array.from({ length: COUNT }, (_, i) =>
    newRecord(
      costLines,
      org,
      {
        attributes: {
          kind: i % 5 === 0 ? 'estimate' : 'actual',
          quantity: 1,
          at: at(i).toISOString(),
          snapshot: {
            rate_code: 'LAB',
            rate_version: RATE,
            category: 'labour',
            currency: 'GBP',
            unit_cost: 100,
            unit_charge: 150,
          },
          cost: money(100),
          charge: money(150),
        },
        rels: { cost_sheet: SHEET(i % 20), rate_code: RATE },
      },
      at(i),
    ),
  );
  checks = Array.from({ length: COUNT }, (_, i) =>
    newRecord(
      vehicleInventoryChecks,
      org,
      {
        attributes: { inspected_at: inspectedAt(i), items: [] },
        rels: { vehicle: VEHICLE(i % 12), author: null, equipment: [] },
      },
      at(i),
    ),
  );
  await bulkPutCounted([...sheets, ...lines, ...checks]);
}, 60_000);
afterAll(() => api.close());

const idsOf = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);
const inCreation = (records: () => StoredResource[], keep: (r: StoredResource) => boolean) => () =>
  records()
    .filter(keep)
    .map((r) => r.id);
const newestFirst = (records: () => StoredResource[], keep: (r: StoredResource) => boolean) => () =>
  inCreation(records, keep)().reverse();
const byInspection = (keep: (r: StoredResource) => boolean) => () =>
  checks
    .filter(keep)
    .sort((a, b) => compareCollated(a.attributes.inspected_at, b.attributes.inspected_at))
    .map((c) => c.id);
const SINCE = new Date(START + 40 * HOUR).toISOString();
const UNTIL = new Date(START + 160 * HOUR).toISOString();
const inspectedIn = (c: StoredResource) =>
  String(c.attributes.inspected_at) >= SINCE && String(c.attributes.inspected_at) <= UNTIL;
const vehicle = (n: number) => (c: StoredResource) => c.rels.vehicle === VEHICLE(n);

const paths = {
  sheets: () => `/v3/orgs/${tenant.org.id}/costs/cost-sheets`,
  lines: () => `/v3/orgs/${tenant.org.id}/costs/cost-lines`,
  checks: () => `/v3/orgs/${tenant.org.id}/assets/vehicle-inventory-checks`,
};
const cases: [() => string, string, () => string[]][] = [
  [
    paths.sheets,
    'filter[status]=approved',
    inCreation(
      () => sheets,
      (s) => s.attributes.status === 'approved',
    ),
  ],
  [
    paths.sheets,
    'filter[status]=quoted&sort=-created_at',
    newestFirst(
      () => sheets,
      (s) => s.attributes.status === 'quoted',
    ),
  ],
  [
    paths.lines,
    'filter[kind]=estimate',
    inCreation(
      () => lines,
      (l) => l.attributes.kind === 'estimate',
    ),
  ],
  [
    paths.lines,
    `filter[cost_sheet]=${SHEET(7)}`,
    inCreation(
      () => lines,
      (l) => l.rels.cost_sheet === SHEET(7),
    ),
  ],
  [
    paths.lines,
    `filter[cost_sheet]=${SHEET(5)}&filter[kind]=estimate`,
    inCreation(
      () => lines,
      (l) => l.rels.cost_sheet === SHEET(5) && l.attributes.kind === 'estimate',
    ),
  ],
  [paths.checks, `filter[vehicle]=${VEHICLE(3)}`, () => byInspection(vehicle(3))().reverse()],
  [paths.checks, `filter[vehicle]=${VEHICLE(3)}&sort=-created_at`, newestFirst(() => checks, vehicle(3))],
  [
    paths.checks,
    `filter[inspected_at.since]=${SINCE}&filter[inspected_at.until]=${UNTIL}&sort=inspected_at`,
    byInspection(inspectedIn),
  ],
  [
    paths.checks,
    `filter[inspected_at.since]=${SINCE}&filter[inspected_at.until]=${UNTIL}&sort=-created_at`,
    newestFirst(() => checks, inspectedIn),
  ],
  [
    paths.checks,
    `filter[created_at.since]=${at(200).toISOString()}&sort=created_at`,
    inCreation(
      () => checks,
      (c) => String(c.meta.created_at) >= at(200).toISOString(),
    ),
  ],
  [
    paths.checks,
    `filter[vehicle]=${VEHICLE(5)}&filter[created_at.until]=${at(120).toISOString()}&sort=created_at`,
    inCreation(
      () => checks,
      (c) => vehicle(5)(c) && String(c.meta.created_at) <= at(120).toISOString(),
    ),
  ],
];

/** A list's reads besides authentication, measured on its second sending (see children-paging.test.ts). */
const measured = (path: string) => measuredGet(api, token, path);

describe('costs and inventory checks: indexed filters answer what the partition filter answered', () => {
  it('by offset, every page and the total are those of the unindexed read', async () => {
    for (const [path, query, expected] of cases) {
      const res = await api.get(`${path()}?${query}&page[limit]=100`, token);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(idsOf(res.body), query).toEqual(expected().slice(0, 100));
      expect(res.body.meta.pagination.counts.resources, query).toBe(expected().length);
    }
  });

  it('by cursor, the walk gives every match once, in the same order', async () => {
    for (const [path, query, expected] of cases) {
      const walked = await idsByCursor(api, `${path()}?${query}&page[limit]=7&page[cursor]=`, token);
      expect(walked, query).toEqual(expected());
    }
  });
});

describe('costs and inventory checks: an indexed filter reads what its page returns', () => {
  it("a counted value beside a sheet reads through the sheet's index, in either order: no more than the sheet's lines", async () => {
    const sheetLines = lines.filter((l) => l.rels.cost_sheet === SHEET(11)).length;
    for (const query of [
      `filter[kind]=actual&filter[cost_sheet]=${SHEET(11)}`,
      `filter[cost_sheet]=${SHEET(11)}&filter[kind]=actual`,
    ]) {
      const page = await measured(`${paths.lines()}?${query}&page[limit]=100&page[cursor]=`);
      expect(page.body.data.length, query).toBeGreaterThan(0);
      expect(page.items, query).toBeLessThanOrEqual(sheetLines);
    }
  });

  it('a cursor page reads at most 1.1× the items it returns, in the same calls at page sizes 3 and 8', async () => {
    const queries = [
      `${paths.sheets()}?filter[status]=completed`,
      `${paths.lines()}?filter[kind]=estimate`,
      `${paths.lines()}?filter[cost_sheet]=${SHEET(11)}`,
      `${paths.checks()}?filter[vehicle]=${VEHICLE(8)}&sort=created_at`,
      `${paths.checks()}?filter[inspected_at.since]=${SINCE}&sort=inspected_at`,
      `${paths.checks()}?filter[created_at.since]=${at(100).toISOString()}&sort=created_at`,
    ];
    await expectCursorPagesRead(measured, queries, { limits: [3, 8], full: true });
  });

  it('an offset page of a counted filter reads its page and the count kept for the value, not every match', async () => {
    for (const [query, total] of [
      [`${paths.sheets()}?filter[status]=quoted`, COUNT / 2],
      [`${paths.lines()}?filter[kind]=actual`, (COUNT * 4) / 5],
    ] as const) {
      const page = await measured(`${query}&page[offset]=10&page[limit]=5`);
      expect(page.body.meta.pagination.counts.resources, query).toBe(total);
      expect(page.body.data, query).toHaveLength(5);
      expect(page.items, query).toBe(10 + 5 + 1);
      expect(page.calls, query).toBe(2);
    }
  });
});

describe('costs and inventory checks: meta.features', () => {
  it('names every filter indexed', async () => {
    const filterOf = async (path: string) =>
      (await api.get(`${path}?page[limit]=1`, token)).body.meta.features.params.filter;
    expect(await filterOf(paths.sheets())).toEqual({ options: ['status'], indexed: ['status'] });
    expect(await filterOf(paths.lines())).toEqual({
      options: ['kind', 'cost_sheet'],
      indexed: ['kind', 'cost_sheet'],
    });
    const checkFilters = [
      'vehicle',
      'inspected_at.since',
      'inspected_at.until',
      'created_at.since',
      'created_at.until',
    ];
    expect(await filterOf(paths.checks())).toEqual({ options: checkFilters, indexed: checkFilters });
  });
});
