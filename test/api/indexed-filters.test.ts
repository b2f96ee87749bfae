/**
 * Indexed filters (issue 42, item 1) on equipment items: `serial`, `status` and `created_at.since/until`
 * are answered from their access patterns, with the answers the partition's filter gave (same items, same
 * order) and reads bounded by what a page returns; a filter that is not indexed narrows an indexed one and
 * alone is refused; `meta.features` names the indexed ones. Seeded with BatchWriteItem through the
 * repository with the counter item their creates would have kept, as the bench is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { equipmentItems, vehicles } from '#functions/assets/definitions';
import { locations } from '#functions/places/definitions';
import type { StoredResource } from '#shared/data/stored-resource';
import { newRecord } from '#shared/engine/record-writes';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { idsByCursor } from '../support/cursor-walk';
import { expectCursorPagesRead, measuredGet } from '../support/indexed-reads';
import { newTenant, type Tenant } from '../support/tenants';

const COUNT = 300;
const MINUTE = 60_000;
const START = Date.UTC(2026, 2, 1);

let api: TestApi;
let tenant: Tenant;
let token: string;
let items: StoredResource[];
const base = () => `/v3/orgs/${tenant.org.id}/assets/equipment`;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Indexed filters', 0);
  token = await api.token(tenant.admin);
  // Serials out of creation order, so `sort=serial` and creation order differ; 1 in 15 in repair.
  items = Array.from({ length: COUNT }, (_, i) =>
    newRecord(
      equipmentItems,
      tenant.org.id,
      {
        attributes: {
          serial: `SN-${String((i * 7919) % COUNT).padStart(4, '0')}`,
          status: i % 15 === 4 ? 'in_repair' : 'active',
          reference: `R${i % 10}`,
        },
      },
      new Date(START + i * MINUTE),
    ),
  );
  await bulkPutCounted(items);
}, 60_000);
afterAll(() => api.close());

const at = (i: number) => new Date(START + i * MINUTE).toISOString();
const idsOf = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);
const byCreation = (keep: (item: StoredResource) => boolean) => items.filter(keep).map((item) => item.id);
const serialOf = (item: StoredResource) => String(item.attributes.serial);
const bySerial = (keep: (item: StoredResource) => boolean) =>
  items
    .filter(keep)
    .sort((a, b) => serialOf(a).localeCompare(serialOf(b)))
    .map((item) => item.id);
const inRepair = (item: StoredResource) => item.attributes.status === 'in_repair';
const since = (i: number) => (item: StoredResource) => String(item.meta.created_at) >= at(i);
const until = (i: number) => (item: StoredResource) => String(item.meta.created_at) <= at(i);

/** A list's reads besides authentication, measured on its second sending (see children-paging.test.ts). */
const measured = (path: string) => measuredGet(api, token, path);

describe('indexed filters answer what the partition filter answered', () => {
  const cases: [string, string[]][] = [];
  beforeAll(() => {
    const target = items[COUNT / 3];
    cases.push(
      [`filter[serial]=${target ? serialOf(target) : ''}`, byCreation((i) => i === target)],
      ['filter[status]=in_repair', byCreation(inRepair)],
      ['filter[status]=in_repair&sort=serial', bySerial(inRepair)],
      ['filter[status]=in_repair&sort=-serial', bySerial(inRepair).reverse()],
      ['filter[status]=in_repair&sort=-created_at', byCreation(inRepair).reverse()],
      [`filter[created_at.since]=${at(200)}`, byCreation(since(200))],
      [`filter[created_at.until]=${at(40)}`, byCreation(until(40))],
      [
        `filter[created_at.since]=${at(100)}&filter[created_at.until]=${at(160)}&sort=-created_at`,
        byCreation((i) => since(100)(i) && until(160)(i)).reverse(),
      ],
      [
        `filter[status]=in_repair&filter[created_at.since]=${at(150)}`,
        byCreation((i) => inRepair(i) && since(150)(i)),
      ],
      [
        'filter[status]=in_repair&filter[reference]=R4',
        byCreation((i) => inRepair(i) && i.attributes.reference === 'R4'),
      ],
    );
  });

  it('by offset, every page and the total are those of the unindexed read', async () => {
    for (const [query, expected] of cases) {
      const res = await api.get(`${base()}?${query}&page[limit]=100`, token);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(idsOf(res.body), query).toEqual(expected.slice(0, 100));
      expect(res.body.meta.pagination.counts.resources, query).toBe(expected.length);
    }
  });

  it('by cursor, the walk gives every match once, in the same order', async () => {
    for (const [query, expected] of cases) {
      expect(await idsByCursor(api, `${base()}?${query}&page[limit]=7&page[cursor]=`, token), query).toEqual(
        expected,
      );
    }
  });
});

describe('an indexed filter reads what its page returns', () => {
  it('a cursor page reads at most 1.1× the items it returns, in the same calls at page sizes 5 and 20', async () => {
    const target = items[200];
    const queries = [
      `filter[serial]=${target ? serialOf(target) : ''}`,
      'filter[status]=in_repair',
      `filter[created_at.since]=${at(100)}`,
      `filter[status]=in_repair&filter[created_at.until]=${at(250)}`,
    ];
    const paths = queries.map((query) => `${base()}?${query}`);
    await expectCursorPagesRead(measured, paths, { limits: [5, 20] });
  });

  it('an offset page of a counted filter reads its page and the count kept for its value, not every match', async () => {
    const calls = new Set<number>();
    for (const [offset, limit] of [
      [0, 5],
      [10, 5],
      [0, 15],
    ] as const) {
      const page = await measured(
        `${base()}?filter[status]=in_repair&page[offset]=${offset}&page[limit]=${limit}`,
      );
      expect(page.body.meta.pagination.counts.resources).toBe(COUNT / 15);
      expect(page.body.data).toHaveLength(limit);
      // The page's items (`offset + limit`) and the counter item, in two calls at any page size.
      expect(page.items).toBe(offset + limit + 1);
      calls.add(page.calls);
    }
    expect(calls.size).toBe(1);
  });

  it('an offset page of a time window reads its page, and counts the window with a count-only read', async () => {
    const calls = new Set<number>();
    for (const limit of [5, 20]) {
      const page = await measured(`${base()}?filter[created_at.since]=${at(100)}&page[limit]=${limit}`);
      expect(page.body.meta.pagination.counts.resources).toBe(COUNT - 100);
      expect(page.body.data).toHaveLength(limit);
      // The page's Query reads the page; the count's looks at the window and returns no item.
      const queries = page.reads.filter((r) => r.command === 'QueryCommand').map((r) => r.items);
      expect(queries.sort((a, b) => a - b)).toEqual([limit, COUNT - 100]);
      calls.add(page.calls);
    }
    expect(calls.size).toBe(1);
  });
});

describe('filters that are not indexed', () => {
  it('alone are refused with 400 naming the indexed filters, and nothing is read', async () => {
    for (const query of ['filter[reference]=R1', 'filter[is_rented]=true', 'filter[asset_number]=A1']) {
      const res = await api.get(`${base()}?${query}`, token);
      expect(res.status, res.text).toBe(400);
      const [error] = res.body.errors;
      expect(error.source.parameter).toBe(query.slice(0, query.indexOf('=')));
      expect(error.detail).toContain('serial, status, created_at.since, created_at.until');
    }
  });

  it('meta.features names the indexed filters beside every option', async () => {
    const res = await api.get(`${base()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter).toEqual({
      options: [
        'serial',
        'status',
        'reference',
        'asset_number',
        'is_rented',
        'created_at.since',
        'created_at.until',
      ],
      indexed: ['serial', 'status', 'created_at.since', 'created_at.until'],
    });
  });
});

describe('writes keep the index entries', () => {
  it('a created item is found by its status, and a changed status moves it', async () => {
    const created = await api.request('POST', base(), {
      token,
      body: { data: { type: 'equipment-items', attributes: { serial: 'KEPT-1', status: 'in_repair' } } },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    const listed = async (status: string) =>
      idsOf((await api.get(`${base()}?filter[status]=${status}&sort=-created_at&page[limit]=1`, token)).body);
    expect(await listed('in_repair')).toEqual([id]);
    const changed = await api.request('PATCH', `${base()}/${id}`, {
      token,
      body: { data: { type: 'equipment-items', id, attributes: { status: 'retired' } } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await listed('in_repair')).not.toContain(id);
    expect(await listed('retired')).toEqual([id]);
  });

  it("a create, a change of status and a delete move the counted filter's totals as the records move", async () => {
    const total = async (status: string) =>
      (await api.get(`${base()}?filter[status]=${status}&page[limit]=1`, token)).body.meta.pagination.counts
        .resources as number;
    const before = { active: await total('active'), lost: await total('lost') };
    const created = await api.request('POST', base(), {
      token,
      body: { data: { type: 'equipment-items', attributes: { serial: 'COUNTED-1', status: 'active' } } },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    expect(await total('active')).toBe(before.active + 1);
    const changed = await api.request('PATCH', `${base()}/${id}`, {
      token,
      body: { data: { type: 'equipment-items', id, attributes: { status: 'lost' } } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect([await total('active'), await total('lost')]).toEqual([before.active, before.lost + 1]);
    const renamed = await api.request('PATCH', `${base()}/${id}`, {
      token,
      body: { data: { type: 'equipment-items', id, attributes: { description: 'status unchanged' } } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await total('lost')).toBe(before.lost + 1);
    const deleted = await api.request('DELETE', `${base()}/${id}`, { token });
    expect(deleted.status, deleted.text).toBe(204);
    expect([await total('active'), await total('lost')]).toEqual([before.active, before.lost]);
  });
});

describe('locations: every filter is indexed (reference, name, created_at, location box)', () => {
  const PLACES = 200;
  let places: StoredResource[];
  const placesBase = () => `/v3/orgs/${tenant.org.id}/governance/locations`;
  const byName = (keep: (place: StoredResource) => boolean) =>
    places
      .filter(keep)
      .sort(
        (a, b) =>
          String(a.attributes.name).localeCompare(String(b.attributes.name)) || a.sk.localeCompare(b.sk),
      )
      .map((place) => place.id);
  beforeAll(async () => {
    // Names repeat (1 in 20 share one), references are unique, points on a line north from the equator.
    places = Array.from({ length: PLACES }, (_, i) =>
      newRecord(
        locations,
        tenant.org.id,
        {
          attributes: {
            name: `Depot ${String(i % 20).padStart(2, '0')}`,
            reference: `LOC-${String(i).padStart(4, '0')}`,
            location: { latitude: i / 100, longitude: 0.5 },
          },
        },
        new Date(START + i * MINUTE),
      ),
    );
    await bulkPutCounted(places);
  }, 60_000);

  it('answers each filter as the unindexed read did, by offset (page and total) and by cursor', async () => {
    const cases: [string, string[]][] = [
      ['filter[reference]=LOC-0042', byName((p) => p.attributes.reference === 'LOC-0042')],
      ['filter[name]=Depot 07', byName((p) => p.attributes.name === 'Depot 07')],
      [`filter[created_at.since]=${at(150)}`, byName((p) => String(p.meta.created_at) >= at(150))],
      [
        'filter[name]=Depot 03&filter[location.box.bottom_left]=0,0&filter[location.box.top_right]=1,1',
        byName(
          (p) =>
            p.attributes.name === 'Depot 03' && (p.attributes.location as { latitude: number }).latitude <= 1,
        ),
      ],
    ];
    for (const [query, expected] of cases) {
      const res = await api.get(`${placesBase()}?${query}&page[limit]=100`, token);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(new Set(idsOf(res.body)), query).toEqual(new Set(expected));
      expect(res.body.meta.pagination.counts.resources, query).toBe(expected.length);
      const walked = await idsByCursor(api, `${placesBase()}?${query}&page[limit]=3&page[cursor]=`, token);
      expect(new Set(walked), query).toEqual(new Set(expected));
      expect(walked, query).toHaveLength(expected.length);
    }
  });

  it('a cursor page reads at most 1.1× the items it returns, in the same calls at page sizes 3 and 8', async () => {
    // A window in its own (creation) order; by name it reads its matches to sort them (docs/api.md).
    const paths = [
      'filter[reference]=LOC-0042',
      'filter[name]=Depot 07',
      `filter[created_at.since]=${at(150)}&sort=created_at`,
    ].map((query) => `${placesBase()}?${query}`);
    await expectCursorPagesRead(measured, paths, { limits: [3, 8] });
  });

  it('meta.features names every filter indexed, so none is refused alone', async () => {
    const res = await api.get(`${placesBase()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter.indexed).toEqual(
      res.body.meta.features.params.filter.options,
    );
  });
});

describe('vehicles: registration and status are indexed, status counted', () => {
  const FLEET = 120;
  let fleet: StoredResource[];
  const fleetBase = () => `/v3/orgs/${tenant.org.id}/assets/vehicles`;
  const STATUSES = ['active', 'off_road', 'in_service', 'disposed'];
  beforeAll(async () => {
    fleet = Array.from({ length: FLEET }, (_, i) =>
      newRecord(
        vehicles,
        tenant.org.id,
        { attributes: { registration: `REG ${String(i).padStart(3, '0')}`, status: STATUSES[i % 4] } },
        new Date(START + i * MINUTE),
      ),
    );
    await bulkPutCounted(fleet);
  }, 60_000);
  const registered = (keep: (v: StoredResource) => boolean) =>
    fleet
      .filter(keep)
      .sort((a, b) => String(a.attributes.registration).localeCompare(String(b.attributes.registration)))
      .map((v) => v.id);

  it('answers each filter as the unindexed read did, by offset (page and total) and by cursor', async () => {
    const cases: [string, string[]][] = [
      ['filter[registration]=REG 042', registered((v) => v.attributes.registration === 'REG 042')],
      ['filter[status]=off_road', registered((v) => v.attributes.status === 'off_road')],
      [
        'filter[status]=disposed&filter[registration]=REG 003',
        registered((v) => v.attributes.status === 'disposed' && v.attributes.registration === 'REG 003'),
      ],
    ];
    for (const [query, expected] of cases) {
      const res = await api.get(`${fleetBase()}?${query}&page[limit]=100`, token);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(idsOf(res.body), query).toEqual(expected);
      expect(res.body.meta.pagination.counts.resources, query).toBe(expected.length);
      const walked = await idsByCursor(api, `${fleetBase()}?${query}&page[limit]=4&page[cursor]=`, token);
      expect(new Set(walked), query).toEqual(new Set(expected));
    }
  });

  it('a page of filter[status] by offset reads its page and the count, by cursor what it returns', async () => {
    const offset = await measured(`${fleetBase()}?filter[status]=in_service&sort=created_at&page[limit]=5`);
    expect(offset.body.meta.pagination.counts.resources).toBe(FLEET / 4);
    expect(offset.items).toBe(5 + 1);
    // In the index's own (creation) order; by registration it reads its matches to sort them (docs/api.md).
    const cursor = await measured(
      `${fleetBase()}?filter[status]=in_service&sort=created_at&page[limit]=5&page[cursor]=`,
    );
    expect(cursor.items).toBeLessThanOrEqual(Math.ceil(1.1 * 5));
  });

  it('meta.features names every filter indexed (created_at windows too), so none is refused alone', async () => {
    const res = await api.get(`${fleetBase()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter.indexed).toEqual(
      res.body.meta.features.params.filter.options,
    );
  });
});
