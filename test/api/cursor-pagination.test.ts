/**
 * Issue 19, item 3: cursor pagination, which the spec announces ("Cursor-based pagination may be added
 * later; offset pagination is the current method"). `page[cursor]` (empty for the first page) pages a
 * collection by position: `links.next` carries the next cursor, the walk visits every record once in the
 * collection's order (ties in the sort field too, across organisations too), and a page at any depth
 * reads only the page. A cursor is sealed: forged, edited, or carried to another query or organisation, it
 * is a 400 naming `page[cursor]`, and it never reads outside the caller's scope. Offset pagination stays
 * as it was (pagination-links.test.ts walks every collection route both ways).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streets } from '#functions/places/definitions';
import { queryCollection } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { createServiceAccountClient } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { queryScans } from '../support/query-scans';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let a: Tenant;
let b: Tenant;
let tokenA: string;
let tokenB: string;
/** A client with grants in both organisations: its `/v3/governance/streets` merges two partitions. */
let tokenBoth: string;

const TOWNS = ['Kendal', 'Penrith'];
/** 37 streets in A (names repeating, so the name sort has ties) and 12 in B. */
const makeStreets = async (tenant: Tenant, count: number, prefix: string) => {
  const records = Array.from({ length: count }, (_, i) =>
    newRecord(
      streets,
      tenant.org.id,
      {
        attributes: {
          name: `${['Mill', 'Bridge', 'Church', 'Station'][i % 4]} Street`,
          usrn: `${prefix}${String(i).padStart(6, '0')}`,
          town: TOWNS[i % 2],
        },
      },
      new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    ),
  );
  for (let i = 0; i < records.length; i += 25) {
    await commit(
      scopeOf([tenant.org.id]),
      records.slice(i, i + 25).map((create) => ({ create })),
    );
  }
};

beforeAll(async () => {
  api = await startTestApi();
  [a, b] = await Promise.all([newTenant('Cursor A', 1), newTenant('Cursor B', 1)]);
  await Promise.all([makeStreets(a, 37, '1'), makeStreets(b, 12, '2')]);
  [tokenA, tokenB] = await Promise.all([api.token(a.admin), api.token(b.admin)]);
  const both = await createServiceAccountClient('Cursor both', [
    { org_id: a.org.id, role: 'viewer' },
    { org_id: b.org.id, role: 'viewer' },
  ]);
  tokenBoth = await api.token(both);
}, 120_000);
afterAll(() => api.close());

const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

/** Every id a cursor walk from the empty cursor visits, and the pages it took. */
const walk = async (path: string, query: string, token: string) => {
  const ids: string[] = [];
  let pages = 0;
  let link: string | null = `${api.url}${path}?${query}&page[cursor]=`;
  while (link !== null) {
    const page = await api.get(pathOf(link), token);
    expect(page.status, page.text).toBe(200);
    ids.push(...(page.body.data as { id: string }[]).map((r) => r.id));
    pages++;
    expect(pages).toBeLessThan(100);
    link = page.body.links.next;
  }
  return { ids, pages };
};

/** The same collection by offset, in one page of up to 100: the order a walk must reproduce. */
const byOffset = async (path: string, query: string, token: string) =>
  ((await api.get(`${path}?${query}&page[limit]=100`, token)).body.data as { id: string }[]).map((r) => r.id);

describe('page[cursor] walks a collection', () => {
  const streetsOf = (tenant: Tenant) => `/v3/governance/streets?filter[organisation]=${tenant.org.id}`;

  it.each([
    ['sort=name (a local index with ties)', 'sort=name'],
    ['sort=-name', 'sort=-name'],
    ['sort=created_at', 'sort=created_at'],
    ['sort=-created_at', 'sort=-created_at'],
  ])('%s: every record once, in the offset order, pages of 5', async (_, sort) => {
    const path = '/v3/governance/streets';
    const expected = await byOffset(path, sort, tokenA);
    expect(expected).toHaveLength(37);
    const { ids, pages } = await walk(path, `${sort}&page[limit]=5`, tokenA);
    expect(ids).toEqual(expected);
    // 7 full pages and a short eighth; a full last page would be followed by an empty one.
    expect(pages).toBe(8);
  });

  it('with a filter (read by DynamoDB): the matching records once, in order; no count', async () => {
    const query = `filter[town]=Kendal&sort=name`;
    const expected = await byOffset(streetsOf(a).split('?')[0] ?? '', query, tokenA);
    expect(expected).toHaveLength(19);
    const { ids } = await walk('/v3/governance/streets', `${query}&page[limit]=4`, tokenA);
    expect(ids).toEqual(expected);
    const first = await api.get(`/v3/governance/streets?${query}&page[limit]=4&page[cursor]=`, tokenA);
    expect(first.body.meta.pagination).toEqual({ requested: { limit: 4, cursor: '' } });
  });

  it('unfiltered: meta.pagination counts the collection from its counter', async () => {
    const first = await api.get('/v3/governance/streets?page[limit]=4&page[cursor]=', tokenA);
    expect(first.body.meta.pagination).toEqual({
      requested: { limit: 4, cursor: '' },
      counts: { resources: 37 },
    });
  });

  it('across two organisations (one partition each, merged): all 49 once, in the offset order', async () => {
    for (const sort of ['sort=name', 'sort=-name', 'sort=created_at']) {
      const expected = await byOffset('/v3/governance/streets', sort, tokenBoth);
      expect(expected).toHaveLength(49);
      const { ids } = await walk('/v3/governance/streets', `${sort}&page[limit]=6`, tokenBoth);
      expect(ids, sort).toEqual(expected);
    }
  });

  it('a page deep in the collection reads that page, not what lies before it', async () => {
    let link: string | null = `${api.url}/v3/governance/streets?sort=name&page[limit]=5&page[cursor]=`;
    const partition = `ORG#${a.org.id}#streets`;
    while (link !== null) {
      const { result: page, scanned } = await queryScans(
        (pk) => pk === partition,
        () => api.get(pathOf(link ?? ''), tokenA),
      );
      // One Query of the page's partition, reading the page and no more, however deep.
      expect(scanned).toEqual([page.body.data.length]);
      link = page.body.links.next;
    }
  });

  it('a short last page has no next; limit/offset links are not written', async () => {
    const page = await api.get('/v3/governance/streets?page[limit]=100&page[cursor]=', tokenA);
    expect(page.body.data).toHaveLength(37);
    expect(page.body.links.next).toBeNull();
    expect(Object.keys(page.body.links).sort()).toEqual(['first', 'next', 'self']);
  });
});

describe('a cursor is sealed to its query and never leaves the scope', () => {
  const path = '/v3/governance/streets';
  const nextOf = async (query: string, token = tokenA) =>
    new URL(
      (await api.get(`${path}?${query}&page[limit]=5&page[cursor]=`, token)).body.links.next,
    ).searchParams.get('page[cursor]') ?? '';

  const refused = async (url: string, token = tokenA) => {
    const res = await api.get(url, token);
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source).toEqual({ parameter: 'page[cursor]' });
    return res;
  };

  it('a forged cursor (made up, or its position edited) is a 400 naming page[cursor]', async () => {
    await refused(`${path}?page[cursor]=${encodeURIComponent('eyJ4IjoxfQ.AAAA')}`);
    await refused(`${path}?page[cursor]=not-a-cursor`);
    const cursor = await nextOf('sort=name');
    const [payload, tag] = cursor.split('.');
    const position = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const edited = Buffer.from(JSON.stringify({ ...position, [b.org.id]: { sk: '0' } })).toString(
      'base64url',
    );
    await refused(`${path}?sort=name&page[cursor]=${edited}.${tag}`);
  });

  it('a cursor carried to another sort, filter or collection is a 400', async () => {
    const cursor = await nextOf('sort=name');
    await refused(`${path}?sort=-name&page[cursor]=${cursor}`);
    await refused(`${path}?sort=name&filter[town]=Kendal&page[cursor]=${cursor}`);
    await refused(`/v3/governance/properties?sort=name&page[cursor]=${cursor}`);
  });

  it("another caller's cursor for the same query is a 400: a cursor is sealed to the caller's organisations", async () => {
    await refused(`${path}?sort=name&page[limit]=5&page[cursor]=${await nextOf('sort=name', tokenB)}`);
    await refused(`${path}?sort=name&page[limit]=5&page[cursor]=${await nextOf('sort=name', tokenBoth)}`);
  });

  it('even a position naming another organisation reads only the scope (keys come from the scope)', async () => {
    // What a leaked key could seal: positions in B's partition, read by A's scope. The data layer builds
    // every key from the scope, so B's position is never used and only A's records come back.
    const query = {
      filters: [],
      sort: { field: 'name', path: 'attributes.name', index: 'lsi1' as const, descending: false },
      page: { limit: 100, offset: 0, after: { [b.org.id]: { sk: '0', value: 'a' } } },
      include: [],
    };
    const page = await queryCollection(scopeOf([a.org.id]), streets.type, query);
    expect(page.items).toHaveLength(37);
    expect(new Set(page.items.map((s) => s.org_id))).toEqual(new Set([a.org.id]));
  });

  it('page[cursor] with page[offset] or offset is a 400 naming the offset', async () => {
    for (const offset of ['page[offset]', 'offset']) {
      const res = await api.get(`${path}?page[cursor]=&${offset}=5`, tokenA);
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors[0].source).toEqual({ parameter: offset });
    }
  });

  it('cost roll-ups page by offset only: page[cursor] is an unknown parameter', async () => {
    const res = await api.get('/v3/cost-rollups?page[cursor]=', tokenA);
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source).toEqual({ parameter: 'page[cursor]' });
  });
});
