/**
 * Indexed filters (issue 42, item 1) on the work hierarchy: every filter of schemes, work orders and
 * operations is answered from an access pattern (name and code through their sort indexes, a creation
 * window through the UUIDv7 ids, status through its `gsi2` entry, counted), with the answers the
 * partition's filter gave and reads bounded by what a page returns; a parent filter (`scheme`,
 * `work_order`) reads the parent's subtree on the tree index. Seeded with BatchWriteItem with the counter
 * items their creates would have kept (test/support/counted-seed.ts), as the bench is; the writes through
 * the API keep the entries and counts as records move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, schemes, workOrders } from '#functions/projects/definitions';
import type { StoredResource } from '#shared/data/stored-resource';
import { treeKeys } from '#shared/data/trees';
import type { ResourceDefinition } from '#shared/engine/declaration';
import { newRecord } from '#shared/engine/record-writes';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { idsByCursor } from '../support/cursor-walk';
import { bulkPutHierarchy } from '../support/hierarchy-seed';
import { expectCursorPagesRead, itemsOf, measuredGet } from '../support/indexed-reads';
import { newTenant, type Tenant } from '../support/tenants';

const SCHEMES = 60;
const WORK_ORDERS = 240;
const OPERATIONS = 240;
const MINUTE = 60_000;
const START = Date.UTC(2026, 2, 1);
const STATUSES = ['todo', 'in_progress', 'todo', 'done', 'todo', 'in_progress'] as const;

let api: TestApi;
let tenant: Tenant;
let token: string;
let schemeRecords: StoredResource[];
let workOrderRecords: StoredResource[];
let operationRecords: StoredResource[];
const org = () => `/v3/orgs/${tenant.org.id}/projects`;

const at = (i: number) => new Date(START + i * MINUTE).toISOString();
const idsOf = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

/** A node as its create stores it, filed in its tree under `parent` (a root without one). */
const node = (
  definition: ResourceDefinition,
  i: number,
  attributes: Record<string, unknown>,
  parent?: { relationship: string; record: StoredResource },
) => {
  const record = newRecord(
    definition,
    tenant.org.id,
    { attributes, rels: parent ? { [parent.relationship]: parent.record.id } : {} },
    new Date(START + i * MINUTE),
  );
  const path = parent ? `${parent.record.tree_path}/${record.id}` : record.id;
  return { ...record, ...treeKeys(tenant.org.id, parent?.record.tree_root ?? record.id, path) };
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Indexed work', 0);
  token = await api.token(tenant.admin);
  // Names repeat (1 in 20 share one) out of creation order; codes are unique; statuses cycle, a sixth done.
  const named = (prefix: string, i: number, count: number) => ({
    name: `${prefix} ${String((i * 7) % 20).padStart(2, '0')}`,
    code: `${prefix.slice(0, 2).toUpperCase()}-${String((i * 7919) % count).padStart(4, '0')}`,
  });
  schemeRecords = Array.from({ length: SCHEMES }, (_, i) =>
    node(schemes, i, { ...named('Scheme', i, SCHEMES), status: 'in_planning' }),
  );
  workOrderRecords = Array.from({ length: WORK_ORDERS }, (_, i) =>
    node(
      workOrders,
      i,
      { ...named('Section', i, WORK_ORDERS), status: STATUSES[i % STATUSES.length] },
      { relationship: 'scheme', record: schemeRecords[i % 6] as StoredResource },
    ),
  );
  operationRecords = Array.from({ length: OPERATIONS }, (_, i) =>
    node(
      operations,
      i,
      { ...named('Dig', i, OPERATIONS), status: STATUSES[(i + 1) % STATUSES.length] },
      { relationship: 'work_order', record: workOrderRecords[i % 8] as StoredResource },
    ),
  );
  await bulkPutHierarchy([...schemeRecords, ...workOrderRecords, ...operationRecords]);
}, 60_000);
afterAll(() => api.close());

/**
 * A list's reads besides authentication, measured on its second sending (see children-paging.test.ts).
 * A page of schemes also reads each scheme's progress (progress.ts, one BatchGetItem a page, one item a
 * scheme with work orders): the answer's, not the filter's, and left out here; projects.test.ts counts it.
 */
const measured = async (path: string) => {
  const page = await measuredGet(api, token, path);
  if (!path.includes('/schemes?')) return page;
  const progress = `ORG#${tenant.org.id}#progress`;
  const reads = page.reads.filter((r) => !r.partitions?.every((pk) => pk === progress));
  return { ...page, reads, items: itemsOf(reads), calls: reads.length };
};

const byName = (records: StoredResource[], keep: (record: StoredResource) => boolean) =>
  records
    .filter(keep)
    .sort(
      (a, b) =>
        String(a.attributes.name).localeCompare(String(b.attributes.name)) || a.sk.localeCompare(b.sk),
    )
    .map((record) => record.id);
const byCreation = (records: StoredResource[], keep: (record: StoredResource) => boolean) =>
  records.filter(keep).map((record) => record.id);
/** A seeded record's name by its id: what a list sorted by name orders by. */
const nameOf = (id: string) =>
  [...schemeRecords, ...workOrderRecords, ...operationRecords].find((r) => r.id === id)?.attributes.name;
const since = (i: number) => (record: StoredResource) => String(record.meta.created_at) >= at(i);

const types = () =>
  [
    { path: 'schemes', records: schemeRecords, prefix: 'Scheme', code: 'SC', status: 'in_planning' },
    { path: 'work-orders', records: workOrderRecords, prefix: 'Section', code: 'SE', status: 'done' },
    { path: 'operations', records: operationRecords, prefix: 'Dig', code: 'DI', status: 'in_progress' },
  ] as const;

describe('schemes, work orders and operations: every filter answers what the partition filter answered', () => {
  it('by offset (first page and total) and by cursor, each filter alone and status with the creation window', {
    timeout: 60_000,
  }, async () => {
    for (const { path, records, prefix, code, status } of types()) {
      const cases: [string, string[]][] = [
        [`filter[name]=${prefix} 07`, byName(records, (r) => r.attributes.name === `${prefix} 07`)],
        [`filter[code]=${code}-0042`, byName(records, (r) => r.attributes.code === `${code}-0042`)],
        [`filter[created_at.since]=${at(40)}`, byName(records, since(40))],
        [`filter[status]=${status}`, byName(records, (r) => r.attributes.status === status)],
        [
          `filter[status]=${status}&filter[created_at.since]=${at(30)}&sort=-created_at`,
          byCreation(records, (r) => r.attributes.status === status && since(30)(r)).reverse(),
        ],
      ];
      for (const [query, expected] of cases) {
        const res = await api.get(`${org()}/${path}?${query}&page[limit]=100`, token);
        expect(res.status, `${path} ${query}: ${res.text}`).toBe(200);
        // Records of one name may come in either order (the sort index holds the name alone).
        const answered = idsOf(res.body);
        const first = expected.slice(0, 100);
        expect(answered.map(nameOf), `${path} ${query}`).toEqual(first.map(nameOf));
        expect(new Set(answered), `${path} ${query}`).toEqual(new Set(first));
        expect(res.body.meta.pagination.counts.resources, `${path} ${query}`).toBe(expected.length);
        const walked = await idsByCursor(
          api,
          `${org()}/${path}?${query}&page[limit]=25&page[cursor]=`,
          token,
        );
        expect(walked.map(nameOf), `${path} ${query}`).toEqual(expected.map(nameOf));
        expect(new Set(walked), `${path} ${query}`).toEqual(new Set(expected));
        expect(walked, `${path} ${query}`).toHaveLength(expected.length);
      }
    }
  });

  it('a parent filter with another: work orders of a scheme by status, operations of a work order in a creation window', async () => {
    const scheme = schemeRecords[2] as StoredResource;
    const workOrder = workOrderRecords[3] as StoredResource;
    const cases: [string, string, string[]][] = [
      [
        'work-orders',
        `filter[scheme]=${scheme.id}&filter[status]=todo&sort=created_at`,
        byCreation(workOrderRecords, (r) => r.rels.scheme === scheme.id && r.attributes.status === 'todo'),
      ],
      [
        'operations',
        `filter[work_order]=${workOrder.id}&filter[created_at.since]=${at(0)}&sort=created_at`,
        byCreation(operationRecords, (r) => r.rels.work_order === workOrder.id),
      ],
    ];
    for (const [path, query, expected] of cases) {
      expect(expected.length, query).toBeGreaterThan(0);
      const res = await api.get(`${org()}/${path}?${query}&page[limit]=100`, token);
      expect(res.status, res.text).toBe(200);
      expect(idsOf(res.body), query).toEqual(expected);
      expect(await idsByCursor(api, `${org()}/${path}?${query}&page[limit]=4&page[cursor]=`, token)).toEqual(
        expected,
      );
    }
  });
});

describe('an indexed filter of the work hierarchy reads what its page returns', () => {
  it('a cursor page reads at most 1.1× the items it returns, in the same calls at page sizes 3 and 9', async () => {
    for (const { path, prefix, code, status } of types()) {
      // In each index's own order: a name's and a code's by name, a status's and a window's by creation.
      const lists = [
        `filter[name]=${prefix} 07`,
        `filter[code]=${code}-0042`,
        `filter[status]=${status}&sort=created_at`,
        `filter[created_at.since]=${at(20)}&sort=created_at`,
      ].map((query) => `${org()}/${path}?${query}`);
      await expectCursorPagesRead(measured, lists, { limits: [3, 9] });
    }
  });

  it('an offset page of filter[status] reads its page and the count kept for its value, not every match', async () => {
    for (const { path, records, status } of types()) {
      const matches = records.filter((r) => r.attributes.status === status).length;
      const calls = new Set<number>();
      for (const [offset, limit] of [
        [0, 4],
        [5, 4],
        [0, 8],
      ] as const) {
        const page = await measured(
          `${org()}/${path}?filter[status]=${status}&sort=created_at&page[offset]=${offset}&page[limit]=${limit}`,
        );
        expect(page.body.meta.pagination.counts.resources, path).toBe(matches);
        expect(page.body.data, path).toHaveLength(limit);
        // The page's items (`offset + limit`) and the counter item.
        expect(page.items, `${path} ${offset} ${limit}`).toBe(offset + limit + 1);
        calls.add(page.calls);
      }
      expect(calls.size, path).toBe(1);
    }
  });
});

describe('a parent filter reads the parent and its subtree, never the partition', () => {
  it('alone it answers as the partition filter did, reading the parent and what lies under it, at any page size', async () => {
    const scheme = schemeRecords[2] as StoredResource;
    const workOrder = workOrderRecords[3] as StoredResource;
    const cases = [
      {
        path: 'work-orders',
        query: `filter[scheme]=${scheme.id}`,
        expected: byName(workOrderRecords, (r) => r.rels.scheme === scheme.id),
        // The scheme's work orders as its progress item lists them, never their operations.
        under: workOrderRecords.filter((r) => r.rels.scheme === scheme.id).length,
      },
      {
        path: 'operations',
        query: `filter[work_order]=${workOrder.id}`,
        expected: byName(operationRecords, (r) => r.rels.work_order === workOrder.id),
        under: 1 + operationRecords.filter((r) => r.rels.work_order === workOrder.id).length,
      },
    ];
    for (const { path, query, expected, under } of cases) {
      const calls = new Set<number>();
      for (const limit of [3, 9]) {
        const page = await measured(`${org()}/${path}?${query}&page[limit]=${limit}`);
        expect(
          page.body.data.map((r: { id: string }) => nameOf(r.id)),
          query,
        ).toEqual(expected.slice(0, limit).map(nameOf));
        expect(page.body.meta.pagination.counts.resources, query).toBe(expected.length);
        // The parent's list (its progress item) or the parent itself (one BatchGetItem of its two keys),
        // and what lies under it: never the type's partition.
        expect(page.items, `${query} at ${limit}`).toBe(1 + under);
        calls.add(page.calls);
      }
      expect(calls.size, query).toBe(1);
      const walked = await idsByCursor(api, `${org()}/${path}?${query}&page[limit]=4&page[cursor]=`, token);
      expect(new Set(walked), query).toEqual(new Set(expected));
      expect(walked, query).toHaveLength(expected.length);
    }
  });

  it("a scheme's work orders by cursor in creation order read the page's work orders and the scheme's list, not its operations", async () => {
    const scheme = schemeRecords[2] as StoredResource;
    const listed = byCreation(workOrderRecords, (r) => r.rels.scheme === scheme.id);
    // 40 work orders (30 operations under one of them): every page at 3 and 9 is full.
    const lists = ['created_at', '-created_at'].map(
      (sort) => `${org()}/work-orders?filter[scheme]=${scheme.id}&sort=${sort}`,
    );
    await expectCursorPagesRead(measured, lists, { limits: [3, 9], full: true, besides: 1 });
    for (const [sort, expected] of [
      ['created_at', listed],
      ['-created_at', listed.toReversed()],
    ] as const) {
      const query = `filter[scheme]=${scheme.id}&sort=${sort}`;
      const walked = await idsByCursor(
        api,
        `${org()}/work-orders?${query}&page[limit]=7&page[cursor]=`,
        token,
      );
      expect(walked, sort).toEqual(expected);
      const first = await api.get(`${org()}/work-orders?${query}&page[limit]=7&page[cursor]=`, token);
      expect(first.body.meta.pagination.counts.resources, sort).toBe(listed.length);
    }
  });

  it('a parent of another organisation, or none, answers an empty page; a value longer than any key, a 400', async () => {
    const other = await newTenant('Other work', 0);
    const theirs = node(schemes, 0, { name: 'Theirs', status: 'in_planning' });
    const moved = { ...theirs, org_id: other.org.id, pk: `ORG#${other.org.id}#schemes` };
    await bulkPutCounted([moved]);
    const long = await api.get(`${org()}/work-orders?filter[scheme]=${'x'.repeat(2000)}`, token);
    expect(long.status, long.text).toBe(400);
    for (const id of [moved.id, '019ca6d7-6560-75bc-bcfc-2e7f674faf03']) {
      const res = await api.get(`${org()}/work-orders?filter[scheme]=${id}`, token);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toEqual([]);
    }
  });

  it('meta.features names every filter indexed, so none is refused alone', async () => {
    for (const { path } of types()) {
      const res = await api.get(`${org()}/${path}?page[limit]=1`, token);
      expect(res.body.meta.features.params.filter.indexed, path).toEqual(
        res.body.meta.features.params.filter.options,
      );
    }
  });
});

describe('the writes of the work hierarchy keep the status entries and counts', () => {
  it('a work order created, changed, deleted and restored is found and counted under its status and its scheme as it moves', async () => {
    const created = await api.request('POST', `${org()}/schemes`, {
      token,
      body: { data: { type: 'schemes', attributes: { name: 'Writes' } } },
    });
    expect(created.status, created.text).toBe(201);
    const schemeId = created.body.data.id;
    // The newest of a status, through its `gsi2` entry: the seeded records are older than any made here.
    const statusOf = async (status: string) => {
      const res = await api.get(
        `${org()}/work-orders?filter[status]=${status}&sort=-created_at&page[limit]=1&page[cursor]=`,
        token,
      );
      expect(res.status, res.text).toBe(200);
      return idsOf(res.body);
    };
    const totalOf = async (status: string) =>
      (await api.get(`${org()}/work-orders?filter[status]=${status}&page[limit]=1`, token)).body.meta
        .pagination.counts.resources as number;
    // Its scheme's list (progress.ts), by offset and by cursor in creation order.
    const ofScheme = async () => {
      const base = `${org()}/work-orders?filter[scheme]=${schemeId}&sort=created_at`;
      const [offset, cursor] = await Promise.all([
        api.get(base, token),
        api.get(`${base}&page[limit]=5&page[cursor]=`, token),
      ]);
      expect(idsOf(cursor.body), 'by cursor').toEqual(idsOf(offset.body));
      return idsOf(offset.body);
    };
    const doneBefore = await totalOf('done');
    const todoBefore = await totalOf('todo');
    const made = await api.request('POST', `${org()}/work-orders`, {
      token,
      body: {
        data: {
          type: 'work-orders',
          attributes: { name: 'Trench' },
          relationships: { scheme: { data: { type: 'schemes', id: schemeId } } },
        },
      },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id;
    expect(await ofScheme()).toEqual([id]);
    expect(await statusOf('todo')).toEqual([id]);
    expect(await totalOf('todo')).toBe(todoBefore + 1);

    const changed = await api.request('PATCH', `${org()}/work-orders/${id}`, {
      token,
      body: { data: { type: 'work-orders', id, attributes: { status: 'done' } } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await statusOf('todo')).not.toEqual([id]);
    expect(await statusOf('done')).toEqual([id]);
    expect([await totalOf('todo'), await totalOf('done')]).toEqual([todoBefore, doneBefore + 1]);

    expect((await api.request('DELETE', `${org()}/work-orders/${id}`, { token })).status).toBe(204);
    expect(await statusOf('done')).not.toEqual([id]);
    expect(await totalOf('done')).toBe(doneBefore);
    expect(await ofScheme()).toEqual([]);

    const restored = await api.request('POST', `${org()}/work-orders/${id}/restore`, { token });
    expect(restored.status, restored.text).toBe(200);
    expect(await statusOf('done')).toEqual([id]);
    expect(await totalOf('done')).toBe(doneBefore + 1);
    expect(await ofScheme()).toEqual([id]);
  });
});
