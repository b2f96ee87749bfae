/**
 * Issue 42, item 4: audit entries are kept for good, and the largest tenant's pass one item collection's
 * 10 GB within a year (the growth table), so they are bucketed by the month of their ids
 * (`ORG#<org>#audit-events#<yyyy-mm>`, data/time-buckets.ts); entries made before the buckets stay in the
 * former partition, read as the oldest bucket. Proven here: entries spread over the former partition and
 * several months (one of them empty) answer every list exactly as one partition did, in order, by offset,
 * by cursor both ways, filtered and totalled, and each by id; the newest page reads only the newest month.
 * The reads run at a clock in March 2027 (faked `Date`), so the months after the buckets begin have passed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventPartition, type StoredEvent, subjectEvents } from '#shared/data/events';
import { uuidv7 } from '#shared/data/ids';
import { getItem } from '#shared/data/repository';
import { startTestApi, type TestApi } from '../support/api';
import { consume, streamRecordOf } from '../support/event-stream';
import { itemsRead } from '../support/query-scans';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;

/** An event at a moment of our choosing (its UUIDv7 id carries it), about a location of its own. */
const eventAt = (at: string, name: 'created' | 'updated'): StoredEvent => {
  const time = Date.parse(at);
  const id = uuidv7(time);
  const subject = { type: 'locations', id: uuidv7(time) };
  return {
    pk: eventPartition(tenant.org.id),
    sk: id,
    gsi1pk: subjectEvents(subject.id),
    gsi1sk: id,
    id,
    org_id: tenant.org.id,
    event: `location.${name}`,
    subject,
    actor: { kind: 'system', id: 'test' },
    occurred_at: new Date(time).toISOString(),
    data: { ...subject, attributes: { name: `Depot ${at}` }, relationships: {}, meta: {} },
    expires_at: Math.floor(time / 1000) + 3600,
  };
};

const MOMENTS = [
  ['2025-06-02T08:00:00Z', 'created'],
  ['2026-11-03T08:00:00Z', 'updated'],
  ['2026-11-20T08:00:00Z', 'created'],
  ['2026-12-01T00:00:00Z', 'created'],
  ['2026-12-31T23:59:59Z', 'updated'],
  ['2027-01-15T08:00:00Z', 'created'],
  // February: none, an empty bucket the walk passes.
  ['2027-03-01T08:00:00Z', 'updated'],
  ['2027-03-10T08:00:00Z', 'created'],
] as const;
let events: StoredEvent[];
/** Every entry's id, newest first: the order one partition answered. */
let newestFirst: string[];

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Audit Buckets Org', 0);
  events = MOMENTS.map(([at, name]) => eventAt(at, name));
  for (const event of events) await consume(streamRecordOf(event));
  newestFirst = events.map((e) => e.id).sort((a, b) => (a < b ? 1 : -1));
});
afterAll(() => api.close());
afterEach(() => vi.useRealTimers());

/** Reads at a clock in March 2027, with a token minted at that clock. */
const inMarch2027 = async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2027-03-20T12:00:00Z') });
  return api.token(tenant.admin);
};
const list = `/v3/orgs/${'{org}'}/audit-events`;
const path = (query: string) => `${list.replace('{org}', tenant.org.id)}?${query}`;
const ids = (body: { data: { id: string }[] }) => body.data.map((e) => e.id);
const nextCursor = (body: { links: { next?: string } }) =>
  body.links.next ? new URL(body.links.next).searchParams.get('page[cursor]') : null;

describe('audit entries bucketed by month answer as one partition did', () => {
  it('entries are stored in the bucket of their id’s month, those before the buckets in the former partition', async () => {
    const at = (i: number) => events[i] as StoredEvent;
    const org = tenant.org.id;
    expect(await getItem({ pk: `ORG#${org}#audit-events`, sk: at(2).id })).not.toBeNull();
    expect(await getItem({ pk: `ORG#${org}#audit-events#2026-12`, sk: at(3).id })).not.toBeNull();
    expect(await getItem({ pk: `ORG#${org}#audit-events#2027-03`, sk: at(7).id })).not.toBeNull();
    expect(await getItem({ pk: `ORG#${org}#audit-events`, sk: at(7).id })).toBeNull();
  });

  it('the default list (newest first) is every entry in order, with the total; by offset, page by page, the same', async () => {
    const token = await inMarch2027();
    const all = await api.get(path('page[limit]=100'), token);
    expect(all.status, all.text).toBe(200);
    expect(ids(all.body)).toEqual(newestFirst);
    expect(all.body.meta.pagination.counts.resources).toBe(MOMENTS.length);
    const pages: string[] = [];
    for (const offset of [0, 3, 6]) {
      const page = await api.get(path(`page[limit]=3&page[offset]=${offset}`), token);
      expect(page.body.meta.pagination.counts.resources).toBe(MOMENTS.length);
      pages.push(...ids(page.body));
    }
    expect(pages).toEqual(newestFirst);
  });

  it('a cursor walks every bucket newest first, and oldest first under sort=created_at, each entry once', async () => {
    const token = await inMarch2027();
    const walk = async (query: string) => {
      const seen: string[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const page = await api.get(
          path(`${query}&page[limit]=3&page[cursor]=${encodeURIComponent(cursor)}`),
          token,
        );
        expect(page.status, page.text).toBe(200);
        seen.push(...ids(page.body));
        cursor = nextCursor(page.body);
      }
      return seen;
    };
    expect(await walk('sort=-created_at')).toEqual(newestFirst);
    expect(await walk('sort=created_at')).toEqual([...newestFirst].reverse());
  });

  it('a filter reads every bucket and answers its matches in order; each entry reads by id wherever it is kept', async () => {
    const token = await inMarch2027();
    const updated = events.filter((e) => e.event === 'location.updated').map((e) => e.id);
    const filtered = await api.get(path('filter[action]=location.updated'), token);
    expect(ids(filtered.body)).toEqual([...updated].reverse());
    expect(filtered.body.meta.pagination.counts.resources).toBe(updated.length);
    for (const id of [events[0]?.id, events[5]?.id]) {
      const one = await api.get(`${list.replace('{org}', tenant.org.id)}/${id}`, token);
      expect(one.status, one.text).toBe(200);
      expect(one.body.data.id).toBe(id);
    }
  });

  it('an export of the entries holds each once, in the list’s order, across the buckets', async () => {
    const token = await inMarch2027();
    const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/exports`, {
      token,
      body: { data: { type: 'exports', attributes: { subject_type: 'audit-events', format: 'csv' } } },
    });
    expect(res.status, res.text).toBe(201);
    const file = await (await fetch(res.body.data.meta.download.url)).text();
    const rows = file.trim().split('\r\n').slice(1);
    expect(rows.map((row) => row.split(',')[0])).toEqual(newestFirst);
  });

  it('the newest page reads the newest month only: one Query of the items it returns', async () => {
    const token = await inMarch2027();
    const { result, reads } = await itemsRead(() => api.get(path('page[limit]=2'), token));
    expect(ids(result.body)).toEqual(newestFirst.slice(0, 2));
    const queries = reads.filter((r) => r.command === 'QueryCommand');
    expect(queries.map((q) => [q.items, q.values?.[0]])).toEqual([
      [2, `ORG#${tenant.org.id}#audit-events#2027-03`],
    ]);
  });
});
