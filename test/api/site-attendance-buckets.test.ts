/**
 * Issue 42, item 4: a sign-in a worker a day passes one item collection's 10 GB within months for the
 * largest tenant (the growth table), so attendances are kept by the month of their ids
 * (`ORG#<org>#site-attendances#<yyyy-mm>`, data/time-buckets.ts) from January 2027; those before stay in
 * the former partition, read as the oldest bucket. Proven here: attendances signed in on either side of
 * the buckets' start and of a month's end (one month empty) answer every list as one partition did, in
 * sign-in order both ways, by offset and by cursor, and each by id; the newest page reads what it returns;
 * a correction keeps the sign-in in its month; and migration attendance-buckets-and-sites moves what the code
 * before the buckets wrote in the former partition after they began. Sign-ins and reads run at faked
 * clocks (`Date`), the reads in April 2027.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { attendanceBucketsAndSites } from '#functions/site-attendances/migrations/attendance-buckets-and-sites';
import { documents, tableName } from '#shared/data/clients';
import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import { startTestApi, type TestApi } from '../support/api';
import { itemsRead } from '../support/query-scans';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
const sites = { depot: '', yard: '' };

const MOMENTS = [
  ['2026-11-30T08:00:00.000Z', 'depot'],
  ['2026-12-31T23:59:59.000Z', 'yard'],
  ['2027-01-01T00:00:01.000Z', 'depot'],
  ['2027-01-31T23:59:00.000Z', 'depot'],
  ['2027-02-01T00:01:00.000Z', 'yard'],
  // March: none, an empty bucket the walk passes.
  ['2027-04-02T07:00:00.000Z', 'depot'],
  ['2027-04-03T07:00:00.000Z', 'yard'],
] as const;
/** Each attendance's id, in sign-in order. */
const signedIn: string[] = [];

const at = (instant: string) => vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(instant) });
const inApril2027 = async () => {
  at('2027-04-20T12:00:00Z');
  return api.token(tenant.admin);
};
const attendances = () => `/v3/orgs/${tenant.org.id}/site-attendances`;
const ids = (body: { data: { id: string }[] }) => body.data.map((a) => a.id);
const nextCursor = (body: { links: { next?: string } }) =>
  body.links.next ? new URL(body.links.next).searchParams.get('page[cursor]') : null;
const formerPk = () => `ORG#${tenant.org.id}#site-attendances`;

/** Whose attendance each is: a worker with an account (`tenant.people[0]`) at these; visitors at the rest. */
const WORKER_AT = new Set([0, 3, 6]);
const worker = () => tenant.people[0]?.id as string;

/** Someone signs in at `site` at `instant` (server time: the faked clock), and is signed out. */
const visitAt = async (instant: string, site: string, i: number) => {
  at(instant);
  const token = await api.token(tenant.admin);
  const res = await api.request('POST', attendances(), {
    token,
    body: {
      data: {
        type: 'site-attendances',
        attributes: {
          method_in: 'kiosk',
          ...(!WORKER_AT.has(i) && { attendee_kind: 'visitor', guest: { name: `Visitor ${i}` } }),
        },
        relationships: {
          location: { data: { type: 'locations', id: site } },
          ...(WORKER_AT.has(i) && { person: { data: { type: 'users', id: worker() } } }),
        },
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  const out = await api.request('POST', `/v3/site-attendances/${res.body.data.id}/sign-out`, { token });
  expect(out.status, out.text).toBe(200);
  return res.body.data.id as string;
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Attendance Buckets Org', 1);
  at('2026-11-01T08:00:00Z');
  const token = await api.token(tenant.admin);
  for (const name of ['depot', 'yard'] as const) {
    const location = await api.request('POST', `/v3/orgs/${tenant.org.id}/governance/locations`, {
      token,
      body: { data: { type: 'locations', attributes: { name: `Bucket ${name}` } } },
    });
    sites[name] = location.body.data.id;
  }
  for (const [i, [instant, site]] of MOMENTS.entries()) signedIn.push(await visitAt(instant, sites[site], i));
  vi.useRealTimers();
});
afterAll(() => api.close());
afterEach(() => vi.useRealTimers());

describe('site attendances bucketed by the month of their ids answer as one partition did', () => {
  it('an attendance is stored in its id’s month from January 2027; those before in the former partition', async () => {
    const [november, december, january] = signedIn;
    expect(await getItem({ pk: formerPk(), sk: november as string })).not.toBeNull();
    expect(await getItem({ pk: formerPk(), sk: december as string })).not.toBeNull();
    expect(await getItem({ pk: `${formerPk()}#2027-01`, sk: january as string })).not.toBeNull();
    expect(await getItem({ pk: formerPk(), sk: january as string })).toBeNull();
    expect(await getItem({ pk: `${formerPk()}#2027-04`, sk: signedIn.at(-1) as string })).not.toBeNull();
  });

  it('the default list (latest sign-in first) is every attendance in order with its total; offset pages the same', async () => {
    const token = await inApril2027();
    const all = await api.get(`${attendances()}?page[limit]=100`, token);
    expect(all.status, all.text).toBe(200);
    expect(ids(all.body)).toEqual([...signedIn].reverse());
    expect(all.body.meta.pagination.counts.resources).toBe(MOMENTS.length);
    const pages: string[] = [];
    for (const offset of [0, 3, 6])
      pages.push(
        ...ids((await api.get(`${attendances()}?page[limit]=3&page[offset]=${offset}`, token)).body),
      );
    expect(pages).toEqual([...signedIn].reverse());
  });

  it('a cursor walks every month across its boundaries, by sign-in both ways and by creation, each attendance once', async () => {
    const token = await inApril2027();
    const walk = async (sort: string) => {
      const seen: string[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const page = await api.get(
          `${attendances()}?sort=${sort}&page[limit]=2&page[cursor]=${encodeURIComponent(cursor)}`,
          token,
        );
        expect(page.status, page.text).toBe(200);
        seen.push(...ids(page.body));
        cursor = nextCursor(page.body);
      }
      return seen;
    };
    expect(await walk('-signed_in_at')).toEqual([...signedIn].reverse());
    expect(await walk('signed_in_at')).toEqual(signedIn);
    expect(await walk('created_at')).toEqual(signedIn);
  });

  it('each attendance reads by id wherever it is kept', async () => {
    const token = await inApril2027();
    for (const id of signedIn) {
      const one = await api.get(`/v3/site-attendances/${id}`, token);
      expect(one.status, one.text).toBe(200);
      expect(one.body.data.id).toBe(id);
    }
  });

  it('the newest page reads the newest month only: one Query of the items it returns', async () => {
    const token = await inApril2027();
    const { result, reads } = await itemsRead(() => api.get(`${attendances()}?page[limit]=2`, token));
    expect(ids(result.body)).toEqual(signedIn.slice(-2).reverse());
    const queries = reads.filter((r) => r.command === 'QueryCommand');
    expect(queries.map((q) => [q.items, q.values?.[0]])).toEqual([[2, `${formerPk()}#2027-04`]]);
  });

  it('a correction keeps the sign-in in the month the attendance was recorded in: another month is 400 and nothing changes', async () => {
    const token = await inApril2027();
    const id = signedIn[4] as string; // signed in 1 February 2027, 00:01
    const patch = (signed_in_at: string) =>
      api.request('PATCH', `/v3/site-attendances/${id}`, {
        token,
        body: {
          data: { type: 'site-attendances', id, attributes: { signed_in_at, correction_reason: 'r' } },
        },
      });
    const across = await patch('2027-01-31T23:55:00.000Z');
    expect(across.status, across.text).toBe(400);
    expect(across.body.errors[0].source).toEqual({ pointer: '/data/attributes/signed_in_at' });
    expect((await api.get(`/v3/site-attendances/${id}`, token)).body.data.attributes.signed_in_at).toBe(
      MOMENTS[4][0],
    );
    const within = await patch('2027-02-01T00:00:30.000Z');
    expect(within.status, within.text).toBe(200);
  });
});

/** The attendances signed in at `site`, in sign-in order. */
const atSite = (site: 'depot' | 'yard') => signedIn.filter((_, i) => MOMENTS[i]?.[1] === site);
/** The worker's attendances, in sign-in order. */
const byWorker = () => signedIn.filter((_, i) => WORKER_AT.has(i));

describe('a site’s attendances and a sign-in window are key ranges inside the months that hold them', () => {
  it('filter[location] walks its site’s entries month after month by cursor, each once in sign-in order, reading what it returns', async () => {
    const token = await inApril2027();
    for (const sort of ['-signed_in_at', 'signed_in_at']) {
      const seen: string[] = [];
      let [read, returned] = [0, 0];
      let cursor: string | null = '';
      while (cursor !== null) {
        const url = `${attendances()}?filter[location]=${sites.depot}&sort=${sort}&page[limit]=2&page[cursor]=${encodeURIComponent(cursor)}`;
        const { result, reads } = await itemsRead(() => api.get(url, token));
        expect(result.status, result.text).toBe(200);
        seen.push(...ids(result.body));
        returned += result.body.data.length;
        read += reads.filter((r) => r.command === 'QueryCommand').reduce((sum, r) => sum + r.items, 0);
        cursor = nextCursor(result.body);
      }
      expect(seen).toEqual(sort === 'signed_in_at' ? atSite('depot') : atSite('depot').reverse());
      expect(read).toBeLessThanOrEqual(returned * 1.1);
    }
  });

  it('by offset, a site’s page and its total; the other site’s are not among them', async () => {
    const token = await inApril2027();
    const page = await api.get(
      `${attendances()}?filter[location]=${sites.yard}&page[limit]=2&page[offset]=1`,
      token,
    );
    expect(page.status, page.text).toBe(200);
    expect(ids(page.body)).toEqual(atSite('yard').reverse().slice(1, 3));
    expect(page.body.meta.pagination.counts.resources).toBe(atSite('yard').length);
  });

  it('a sign-in window across a month’s end reads those two months’ ranges alone, and only its matches', async () => {
    const token = await inApril2027();
    const window =
      'filter[signed_in_at.since]=2027-01-31T00:00:00Z&filter[signed_in_at.until]=2027-02-01T23:59:59Z';
    const { result, reads } = await itemsRead(() =>
      api.get(`${attendances()}?${window}&page[limit]=10`, token),
    );
    expect(result.status, result.text).toBe(200);
    expect(ids(result.body)).toEqual([signedIn[4], signedIn[3]]);
    const queries = reads.filter((r) => r.command === 'QueryCommand');
    // The page's reads and the count's, in each of the two months: its one match, nothing else.
    expect(new Set(queries.map((q) => q.values?.[0]))).toEqual(
      new Set([`${formerPk()}#2027-01`, `${formerPk()}#2027-02`]),
    );
    expect(queries.map((q) => q.items)).toEqual(queries.map(() => 1));
    const yard = await api.get(`${attendances()}?${window}&filter[location]=${sites.yard}`, token);
    expect(ids(yard.body)).toEqual([signedIn[4]]);
  });

  it('filter[person] is their own index’s range across every month: a cursor walks it both ways reading what it returns; a window narrows it', async () => {
    const token = await inApril2027();
    for (const sort of ['-signed_in_at', 'signed_in_at']) {
      const seen: string[] = [];
      let [read, returned] = [0, 0];
      let cursor: string | null = '';
      while (cursor !== null) {
        const url = `${attendances()}?filter[person]=${worker()}&sort=${sort}&page[limit]=2&page[cursor]=${encodeURIComponent(cursor)}`;
        const { result, reads } = await itemsRead(() =>
          fetch(`${api.url}${url}`, { headers: { authorization: `Bearer ${token}` } }),
        );
        const body = (await result.json()) as { data: { id: string }[]; links: { next?: string } };
        expect(result.status).toBe(200);
        seen.push(...ids(body));
        returned += body.data.length;
        read += reads.filter((r) => r.command === 'QueryCommand').reduce((sum, r) => sum + r.items, 0);
        cursor = nextCursor(body);
      }
      expect(seen).toEqual(sort === 'signed_in_at' ? byWorker() : byWorker().reverse());
      expect(read).toBeLessThanOrEqual(returned * 1.1);
    }
    const window = await api.get(
      `${attendances()}?filter[person]=${worker()}&filter[signed_in_at.since]=2027-01-01T00:00:00Z&page[limit]=1`,
      token,
    );
    expect(ids(window.body)).toEqual([signedIn[6]]);
    expect(window.body.meta.pagination.counts.resources).toBe(2);
  });

  it('a filter that is not indexed alone is 400 naming the indexed ones; a site’s list sorted by creation is 400', async () => {
    const token = await inApril2027();
    const alone = await api.get(`${attendances()}?filter[attendee_kind]=visitor`, token);
    expect(alone.status, alone.text).toBe(400);
    expect(alone.body.errors[0].detail).toContain(
      '(scheme, location, person, signed_in_at.since, signed_in_at.until)',
    );
    const beside = await api.get(
      `${attendances()}?filter[attendee_kind]=visitor&filter[location]=${sites.yard}`,
      token,
    );
    expect(ids(beside.body)).toEqual([signedIn[4], signedIn[1]]); // the yard's visitors, not its worker
    const created = await api.get(`${attendances()}?filter[location]=${sites.yard}&sort=created_at`, token);
    expect(created.status, created.text).toBe(400);
    expect(created.body.errors[0].source).toEqual({ parameter: 'sort' });
  });
});

describe('migration attendance-buckets-and-sites: attendances stored by the code before', () => {
  it('before it, one written in the former partition after the buckets began is missing by id, and one without its site entry is missing from its site’s list; after it both read as new; a rerun changes nothing', async () => {
    // As the code before wrote them: no site entry (lsi2), and one of them at the former key.
    const [moved, stayed] = [signedIn[3] as string, signedIn[2] as string];
    const month = `${formerPk()}#2027-01`;
    const stored = await Promise.all(
      [moved, stayed].map(
        async (id) => (await getItem<StoredResource>({ pk: month, sk: id }, true)) as StoredResource,
      ),
    );
    const old = stored.map(({ lsi2: _, gsi2pk: _pk, gsi2sk: _sk, ...item }, i) => ({
      ...item,
      ...(i === 0 && { pk: formerPk() }),
    }));
    for (const item of old) await documents.send(new PutCommand({ TableName: tableName, Item: item }));
    await documents.send(new DeleteCommand({ TableName: tableName, Key: { pk: month, sk: moved } }));
    const token = await inApril2027();
    const depotList = async () =>
      ids((await api.get(`${attendances()}?filter[location]=${sites.depot}&page[limit]=100`, token)).body);
    expect((await api.get(`/v3/site-attendances/${moved}`, token)).status).toBe(404);
    expect(await depotList()).not.toContain(stayed);
    const workerList = async () =>
      ids((await api.get(`${attendances()}?filter[person]=${worker()}&page[limit]=100`, token)).body);
    expect(await workerList()).not.toContain(moved);

    expect(await attendanceBucketsAndSites.migrate(old as StoredResource[], new Date())).toBe(2);
    expect(await getItem({ pk: formerPk(), sk: moved }, true)).toBeNull();
    // Each as today's code stores it: the moved one as it was, the one rewritten in place a version on.
    const [movedNow, stayedNow] = stored as [StoredResource, StoredResource];
    expect(await getItem({ pk: month, sk: moved }, true)).toEqual(movedNow);
    expect(await getItem({ pk: month, sk: stayed }, true)).toEqual({
      ...stayedNow,
      version: stayedNow.version + 1,
    });
    expect((await api.get(`/v3/site-attendances/${moved}`, token)).status).toBe(200);
    expect(await depotList()).toEqual(atSite('depot').reverse());
    expect(await workerList()).toEqual(byWorker().reverse());
    const all = await api.get(`${attendances()}?page[limit]=100`, token);
    expect(ids(all.body)).toEqual([...signedIn].reverse());
    const again = await Promise.all(
      [moved, stayed].map((id) => getItem<StoredResource>({ pk: month, sk: id }, true)),
    );
    expect(await attendanceBucketsAndSites.migrate(again as StoredResource[], new Date())).toBe(0);
  });

  it('selects attendances without a site entry, or in the former partition with ids of a bucketed month', () => {
    const { expression, values } = attendanceBucketsAndSites.select;
    expect(expression).toContain('attribute_not_exists(lsi2)');
    const since = String(values?.[':since']);
    expect(since < (signedIn[2] as string)).toBe(true);
    expect(since > (signedIn[1] as string)).toBe(true);
  });
});
