/**
 * The collection engine's DynamoDB path against DynamoDB Local: the filter expressions, index sorts,
 * counters and scope checks that every collection endpoint relies on, on a resource type of its own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bulkPut } from '#shared/data/bulk';
import { dynamodb } from '#shared/data/clients';
import { uuidv7 } from '#shared/data/ids';
import { batchGet, getInScope, queryCollection, streamPartition } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import { collectionPartition, type StoredResource } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import { defineResource } from '#shared/engine/resource-definition';
import { toStoredResource } from '#shared/engine/stored';
import { parseCollectionQuery } from '#shared/jsonapi/collection-query';

const places = defineResource({
  type: 'test-places',
  relationships: {},
  self: null,
  collection: {
    filters: {
      status: { kind: 'eq', path: 'attributes.status' },
      created_at: { kind: 'time', path: 'meta.created_at' },
      location: { kind: 'box', path: 'attributes.location' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' }, created_at: { path: 'meta.created_at' } },
    defaultSort: 'created_at',
    includes: [],
  },
});

const orgA = uuidv7();
const orgB = uuidv7();
const scopeA = scopeOf([orgA]);

const place = (
  orgId: string,
  name: string,
  status: string,
  at: string,
  latitude: number,
  longitude: number,
) =>
  toStoredResource(places, {
    orgId,
    id: uuidv7(Date.parse(at)),
    attributes: { name, status, location: { latitude, longitude } },
    meta: { created_at: at },
  });

const created: StoredResource[] = [];

beforeAll(async () => {
  const rows: [string, string, string, number, number][] = [
    ['London Bridge', 'active', '2026-01-01T09:00:00.000Z', 51.5079, -0.0877],
    ['Forth Bridge', 'active', '2026-01-02T09:00:00.000Z', 56.0006, -3.3884],
    ['Tamar Bridge', 'retired', '2026-01-03T09:00:00.000Z', 50.4083, -4.2037],
    ['Suva Wharf', 'active', '2026-01-04T09:00:00.000Z', -18.1416, 178.4419],
    ['Apia Jetty', 'active', '2026-01-05T09:00:00.000Z', -13.8333, -171.7667],
  ];
  for (const [name, status, at, lat, lng] of rows) {
    const record = place(orgA, name, status, at, lat, lng);
    await commit(scopeA, [{ create: record }]);
    created.push(record);
  }
  await commit(scopeOf([orgB]), [
    { create: place(orgB, 'Foreign Bridge', 'active', '2026-01-01T10:00:00.000Z', 51.5, -0.1) },
  ]);
});

const names = async (query: Record<string, string>, scope = scopeA) => {
  const { items, total } = await queryCollection(
    scope,
    places.type,
    parseCollectionQuery(query, places.collection ?? never()),
  );
  return { names: items.map((i) => i.attributes.name), total };
};
const never = (): never => {
  throw new Error('no collection options');
};

describe('collection engine on DynamoDB', () => {
  it('default order is creation order (UUIDv7 sort keys); the total comes from the counter', async () => {
    expect(await names({})).toEqual({
      names: ['London Bridge', 'Forth Bridge', 'Tamar Bridge', 'Suva Wharf', 'Apia Jetty'],
      total: 5,
    });
  });

  it('sorting on an index field, descending, with an offset', async () => {
    expect(await names({ sort: '-name', offset: '1', limit: '2' })).toEqual({
      names: ['Suva Wharf', 'London Bridge'],
      total: 5,
    });
  });

  it('equality and a time window combine with AND, and count only the matches', async () => {
    expect(
      await names({
        'filter[status]': 'active',
        'filter[created_at.since]': '2026-01-02T09:00:00Z',
        'filter[created_at.until]': '2026-01-04T09:00:00Z',
      }),
    ).toEqual({ names: ['Forth Bridge', 'Suva Wharf'], total: 2 });
  });

  it('a bounding box keeps what lies inside it', async () => {
    const box = {
      'filter[location.box.bottom_left]': '49.9,-6.0',
      'filter[location.box.top_right]': '55.0,1.8',
    };
    expect(await names(box)).toEqual({ names: ['London Bridge', 'Tamar Bridge'], total: 2 });
  });

  it('a bounding box across the antimeridian keeps both sides of it', async () => {
    const box = {
      'filter[location.box.bottom_left]': '-20,175',
      'filter[location.box.top_right]': '-10,-170',
    };
    expect(await names(box)).toEqual({ names: ['Suva Wharf', 'Apia Jetty'], total: 2 });
  });

  it('a scope never reads another organisation’s records', async () => {
    expect((await names({})).names).not.toContain('Foreign Bridge');
    expect((await names({}, scopeOf([orgB]))).names).toEqual(['Foreign Bridge']);
    const first = created[0];
    if (!first) throw new Error('no records');
    expect(await getInScope(scopeOf([orgB]), places.keyOf, first.id)).toBeNull();
    expect((await getInScope(scopeA, places.keyOf, first.id))?.attributes.name).toBe('London Bridge');
  });

  it('a write outside the scope is refused before it reaches the table', async () => {
    await expect(
      commit(scopeA, [{ create: place(orgB, 'Sneaky', 'active', '2026-01-01T00:00:00.000Z', 0, 0) }]),
    ).rejects.toEqual(new WriteRefused('out-of-scope'));
    expect((await names({}, scopeOf([orgB]))).total).toBe(1);
  });

  it('creating a record twice is refused and leaves the count alone', async () => {
    const first = created[0];
    if (!first) throw new Error('no records');
    await expect(commit(scopeA, [{ create: first }])).rejects.toEqual(new WriteRefused('exists', 0));
    expect((await names({})).total).toBe(5);
  });

  it('BatchGetItem reads more than 100 keys in chunks', async () => {
    const org = uuidv7();
    const many = Array.from({ length: 130 }, (_, i) =>
      place(org, `P${i}`, 'active', new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), 0, 0),
    );
    for (let i = 0; i < many.length; i += 25) {
      await Promise.all(many.slice(i, i + 25).map((p) => commit(scopeOf([org]), [{ create: p }])));
    }
    const found = await batchGet(many.map((p) => places.keyOf(org, p.id)));
    expect(found).toHaveLength(130);
  });
});

/** Each Query on `pk` an export's read makes: the items it asked for, read, and whether a page follows. */
const pagesRead = async (orgId: string) => {
  const pk = collectionPartition(orgId, places.type);
  const pages: { limit: number; read: number; more: boolean }[] = [];
  const name = `countPages${orgId}`;
  dynamodb.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      // The document client's input, plain values (its marshalling runs later in the stack).
      const input = args.input as { Limit?: number; ExpressionAttributeValues?: Record<string, unknown> };
      const output = result.output as { ScannedCount?: number; LastEvaluatedKey?: unknown };
      if (input.ExpressionAttributeValues?.[':pk'] === pk)
        pages.push({
          limit: input.Limit ?? 0,
          read: output.ScannedCount ?? 0,
          more: !!output.LastEvaluatedKey,
        });
      return result;
    },
    { step: 'initialize', name },
  );
  let streamed = 0;
  try {
    const query = parseCollectionQuery({}, places.collection ?? never());
    for await (const { items } of streamPartition(scopeOf([orgId]), orgId, places.type, query))
      streamed += items.length;
  } finally {
    dynamodb.middlewareStack.remove(name);
  }
  return { pages, streamed };
};

/** `count` records of the test type in a new organisation, each with a status of `bytes` characters (the name is a key). */
const manyPlaces = async (count: number, bytes: number) => {
  const org = uuidv7();
  const start = Date.UTC(2026, 0, 1);
  await bulkPut(
    Array.from({ length: count }, (_, i) =>
      place(org, `${i}`, 'active'.padEnd(bytes, '.'), new Date(start + i * 1000).toISOString(), 0, 0),
    ) as unknown as Record<string, unknown>[],
  );
  return org;
};

describe('an export’s read (streamPartition): DynamoDB’s own 1 MB pages, asked for by count', () => {
  it('items of 4 KB: the first page is cut at 1 MB, and each later one asks for what 1 MB holds, no more', async () => {
    const { pages, streamed } = await pagesRead(await manyPlaces(1_500, 4_000));
    expect(streamed).toBe(1_500);
    const [first, ...later] = pages;
    // 1,000 asked for; DynamoDB stops at 1 MB, about 250 of these.
    expect(first?.limit).toBe(1_000);
    expect(first?.read).toBeGreaterThan(200);
    expect(first?.read).toBeLessThan(300);
    for (const page of later) {
      // Near 1 MB a page (no smaller than 95% of what the first held) and never cut short: DynamoDB Local
      // reads what a page asks for before it cuts, so an ask past 1 MB is items read twice.
      expect(page.limit).toBeGreaterThanOrEqual(Math.floor((first?.read ?? 0) * 0.95));
      expect(page.limit).toBeLessThanOrEqual(first?.read ?? 0);
      if (page.more) expect(page.read).toBe(page.limit);
    }
  });

  it('items of 100 bytes: after the first 1,000, one page asks for the rest (what 1 MB holds is more)', async () => {
    const { pages, streamed } = await pagesRead(await manyPlaces(3_000, 100));
    expect(streamed).toBe(3_000);
    expect(pages.map((p) => p.read)).toEqual([1_000, 2_000]);
    expect(pages[1]?.limit).toBeGreaterThan(2_000);
  });
});
