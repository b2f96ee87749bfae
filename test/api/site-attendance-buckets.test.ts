/**
 * Issue 42, item 4: a sign-in a worker a day passes one item collection's 10 GB within months for the
 * largest tenant (the growth table), so attendances are kept by the month of their ids
 * (`ORG#<org>#site-attendances#<yyyy-mm>`, data/time-buckets.ts) from January 2027; those before stay in
 * the former partition, read as the oldest bucket. Proven here: attendances signed in on either side of
 * the buckets' start and of a month's end (one month empty) answer every list as one partition did, in
 * sign-in order both ways, by offset and by cursor, and each by id; the newest page reads what it returns;
 * a correction keeps the sign-in in its month; and migration attendance-month-buckets moves what the code
 * before the buckets wrote in the former partition after they began. Sign-ins and reads run at faked
 * clocks (`Date`), the reads in April 2027.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { attendanceMonthBuckets } from '#functions/site-attendances/migrations/attendance-month-buckets';
import { documents, tableName } from '#shared/data/clients';
import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import { startTestApi, type TestApi } from '../support/api';
import { itemsRead } from '../support/query-scans';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let depot: string;

const MOMENTS = [
  '2026-11-30T08:00:00.000Z',
  '2026-12-31T23:59:59.000Z',
  '2027-01-01T00:00:01.000Z',
  '2027-01-31T23:59:00.000Z',
  '2027-02-01T00:01:00.000Z',
  // March: none, an empty bucket the walk passes.
  '2027-04-02T07:00:00.000Z',
  '2027-04-03T07:00:00.000Z',
];
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

/** A visitor signs in at the depot at `instant` (server time: the faked clock), and is signed out. */
const visitAt = async (instant: string, name: string) => {
  at(instant);
  const token = await api.token(tenant.admin);
  const res = await api.request('POST', attendances(), {
    token,
    body: {
      data: {
        type: 'site-attendances',
        attributes: { method_in: 'kiosk', attendee_kind: 'visitor', guest: { name } },
        relationships: { location: { data: { type: 'locations', id: depot } } },
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
  tenant = await newTenant('Attendance Buckets Org', 0);
  at('2026-11-01T08:00:00Z');
  const location = await api.request('POST', `/v3/orgs/${tenant.org.id}/governance/locations`, {
    token: await api.token(tenant.admin),
    body: { data: { type: 'locations', attributes: { name: 'Bucket depot' } } },
  });
  depot = location.body.data.id;
  for (const [i, instant] of MOMENTS.entries()) signedIn.push(await visitAt(instant, `Visitor ${i}`));
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
      MOMENTS[4],
    );
    const within = await patch('2027-02-01T00:00:30.000Z');
    expect(within.status, within.text).toBe(200);
  });
});

describe('migration attendance-month-buckets: attendances the code before the buckets wrote after they began', () => {
  let misplaced: StoredResource;

  it('before it, such an attendance is missing by id; after it, it reads by id and lists in order; a rerun moves nothing', async () => {
    // As the code before buckets wrote it: the same attendance (sign-in index and all) at the former key.
    const id = signedIn[3] as string;
    const month = `${formerPk()}#2027-01`;
    const stored = (await getItem<StoredResource>({ pk: month, sk: id }, true)) as StoredResource;
    misplaced = { ...stored, pk: formerPk() };
    await documents.send(new PutCommand({ TableName: tableName, Item: misplaced }));
    await documents.send(new DeleteCommand({ TableName: tableName, Key: { pk: month, sk: id } }));
    const token = await inApril2027();
    expect((await api.get(`/v3/site-attendances/${id}`, token)).status).toBe(404);

    const moved = await attendanceMonthBuckets.migrate([misplaced], new Date());
    expect(moved).toBe(1);
    expect(await getItem({ pk: formerPk(), sk: id }, true)).toBeNull();
    expect(await getItem({ pk: month, sk: id }, true)).toEqual(stored);
    const one = await api.get(`/v3/site-attendances/${id}`, token);
    expect(one.status, one.text).toBe(200);
    const all = await api.get(`${attendances()}?page[limit]=100`, token);
    expect(ids(all.body)).toEqual([...signedIn].reverse());
    expect(await attendanceMonthBuckets.migrate([misplaced], new Date())).toBe(0);
  });

  it('selects attendances in the former partition with ids of a bucketed month, and none before', () => {
    const since = String(attendanceMonthBuckets.select.values?.[':since']);
    expect(since < (signedIn[2] as string)).toBe(true);
    expect(since > (signedIn[1] as string)).toBe(true);
  });
});
