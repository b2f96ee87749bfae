/**
 * The cost sheets', cost lines' and vehicle inventory checks' filter index migrations (issue 42, item 1):
 * records written before their filters were answered from indexes lack the entries (and sheets and lines
 * the counts), so the filters never found them; after the migrations they are found, and counted, as
 * records written today are, and read back as they did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vehicleInventoryChecks } from '#functions/assets/definitions';
import { costLines, costSheets } from '#functions/costs/definitions';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
let oldSheets: StoredResource[];
let oldLines: StoredResource[];
let oldChecks: StoredResource[];
const OPERATION = '019c0000-0000-7000-8000-0000000000cc';
const SHEET = '019c0000-0000-7000-8000-0000000000dd';
const RATE = '019c0000-0000-7000-8000-0000000000ee';
const VEHICLE = '019c0000-0000-7000-9000-0000000000ff';

/**
 * As the creates wrote them before their filters were indexed (a7a5f5a): the record (a check with its
 * inspection's sort value, `lsi1`), no entry under its status, kind, sheet or vehicle, in no count.
 */
const beforeFilterIndex = async (record: StoredResource) => {
  const { lsi1: _, lsi2: __, counted: ___, ...old } = record;
  const kept = record.type === vehicleInventoryChecks.type ? { ...old, lsi1: record.lsi1 } : old;
  await commit(scopeOf([record.org_id]), [{ create: kept as StoredResource }]);
  return kept as StoredResource;
};

const sheet = (orgId: string, status: string) =>
  newRecord(costSheets, orgId, {
    attributes: { name: `Old ${status}`, status },
    rels: { operation: OPERATION },
  });
const line = (orgId: string, kind: string) =>
  newRecord(costLines, orgId, {
    attributes: {
      kind,
      quantity: 2,
      at: '2026-01-05T09:00:00.000Z',
      snapshot: {
        rate_code: 'LAB',
        rate_version: RATE,
        category: 'labour',
        currency: 'GBP',
        unit_cost: 100,
        unit_charge: 150,
      },
      cost: { amount: 200, currency: 'GBP' },
      charge: { amount: 300, currency: 'GBP' },
    },
    rels: { cost_sheet: SHEET, rate_code: RATE },
  });
const check = (orgId: string, inspectedAt: string) =>
  newRecord(vehicleInventoryChecks, orgId, {
    attributes: { inspected_at: inspectedAt, items: [] },
    rels: { vehicle: VEHICLE, author: null, equipment: [] },
  });

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Old cost filters', 0);
  token = await api.token(tenant.admin);
  const org = tenant.org.id;
  oldSheets = [
    await beforeFilterIndex(sheet(org, 'quoted')),
    await beforeFilterIndex(sheet(org, 'approved')),
  ];
  oldLines = [await beforeFilterIndex(line(org, 'actual')), await beforeFilterIndex(line(org, 'estimate'))];
  oldChecks = [
    await beforeFilterIndex(check(org, '2026-01-02T08:00:00.000Z')),
    await beforeFilterIndex(check(org, '2026-01-09T08:00:00.000Z')),
  ];
});
afterAll(async () => {
  await api?.close();
});

const where = async (collection: string, query: string) => {
  const res = await api.get(`/v3/orgs/${tenant.org.id}/${collection}?${query}&page[limit]=100`, token);
  expect(res.status, res.text).toBe(200);
  return {
    ids: (res.body.data as { id: string }[]).map((r) => r.id),
    total: res.body.meta.pagination.counts.resources as number,
  };
};
const SHEETS = 'costs/cost-sheets';
const LINES = 'costs/cost-lines';
const CHECKS = 'assets/vehicle-inventory-checks';

describe('before the migrations: records written before their filters were indexed', () => {
  it('cost sheets and lines: filter[status], filter[kind] and filter[cost_sheet] miss them', async () => {
    expect(await where(SHEETS, 'filter[status]=quoted')).toEqual({ ids: [], total: 0 });
    expect(await where(LINES, 'filter[kind]=estimate')).toEqual({ ids: [], total: 0 });
    expect((await where(LINES, `filter[cost_sheet]=${SHEET}`)).ids).toEqual([]);
  });

  it('inventory checks: filter[vehicle] misses them', async () => {
    expect((await where(CHECKS, `filter[vehicle]=${VEHICLE}`)).ids).toEqual([]);
  });
});

describe('the cost and inventory check filter index migrations', () => {
  let run: Awaited<ReturnType<typeof migrate>>;
  const read = (records: StoredResource[], path: string) =>
    Promise.all(records.map((r) => api.get(`${path}/${r.id}`, token)));
  const itemPaths = () => ({
    sheets: `/v3/orgs/${tenant.org.id}/${SHEETS}`,
    lines: `/v3/orgs/${tenant.org.id}/${LINES}`,
    checks: '/v3/vehicle-inventory-checks',
  });
  let before: Awaited<ReturnType<typeof read>>[];
  beforeAll(async () => {
    const paths = itemPaths();
    before = [
      await read(oldSheets, paths.sheets),
      await read(oldLines, paths.lines),
      await read(oldChecks, paths.checks),
    ];
    for (const answers of before) for (const res of answers) expect(res.status, res.text).toBe(200);
    run = await migrate();
    expect(run.finished).toBe(true);
  });

  it('cost sheets and lines: found and counted as those written today', async () => {
    expect(run.ran.find((m) => m.name === 'cost-filter-index')).toMatchObject({ changed: 4 });
    const [quoted, approved] = oldSheets.map((s) => s.id);
    expect(await where(SHEETS, 'filter[status]=quoted')).toEqual({ ids: [quoted], total: 1 });
    expect(await where(SHEETS, 'filter[status]=approved')).toEqual({ ids: [approved], total: 1 });
    const [actual, estimate] = oldLines.map((l) => l.id);
    expect(await where(LINES, 'filter[kind]=estimate')).toEqual({ ids: [estimate], total: 1 });
    expect(await where(LINES, 'filter[kind]=actual')).toEqual({ ids: [actual], total: 1 });
    expect(await where(LINES, `filter[cost_sheet]=${SHEET}`)).toEqual({ ids: [actual, estimate], total: 2 });
  });

  it('inventory checks: found under their vehicle', async () => {
    expect(run.ran.find((m) => m.name === 'inventory-check-vehicle-index')).toMatchObject({ changed: 2 });
    const [first, second] = oldChecks.map((c) => c.id);
    expect(await where(CHECKS, `filter[vehicle]=${VEHICLE}`)).toEqual({ ids: [second, first], total: 2 });
  });

  it('each reads back as it did before', async () => {
    const paths = itemPaths();
    const after = [
      await read(oldSheets, paths.sheets),
      await read(oldLines, paths.lines),
      await read(oldChecks, paths.checks),
    ];
    expect(after.map((answers) => answers.map((res) => res.body))).toEqual(
      before.map((answers) => answers.map((res) => res.body)),
    );
  });

  it('run again from scratch, every migration changes no record and writes nothing but its progress', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
  });
});
