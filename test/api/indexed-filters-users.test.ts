/**
 * Indexed filters (issue 42, item 1) on users: `status` (counted), `email`, `job_role` and
 * `created_at.since/until` are answered from their access patterns, with the answers the partition's
 * filter gave (same users, same order) and reads bounded by what a page returns; every filter is indexed,
 * so none is refused alone; writes (a change of job role, a suspension) move the entries and the counts.
 * Seeded with BatchWriteItem as their creates would have stored them (counted-seed.ts).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUserRecord } from '#functions/people/joining';
import { users } from '#functions/people/users';
import { documents, tableName } from '#shared/data/clients';
import { compareCollated } from '#shared/data/collation';
import { uuidv7 } from '#shared/data/ids';
import { counterKey, type StoredResource } from '#shared/data/stored-resource';
import { indexed } from '#shared/engine/stored';
import { createUser } from '../../infra/local/records';
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
let people: StoredResource[];
const jobRoles: string[] = [];
const base = () => `/v3/orgs/${tenant.org.id}/people/users`;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Indexed users', 0);
  token = await api.token(tenant.admin);
  for (const name of ['Labourer', 'Supervisor', 'Engineer']) {
    const created = await api.request('POST', `/v3/orgs/${tenant.org.id}/people/job-roles`, {
      token,
      body: { data: { type: 'job-roles', attributes: { name, code: name.toUpperCase() } } },
    });
    expect(created.status, created.text).toBe(201);
    jobRoles.push(created.body.data.id);
  }
  // Last names out of creation order; 1 in 15 suspended; a job role for two in three, none for the rest.
  people = Array.from({ length: COUNT }, (_, i) => {
    const at = new Date(START + i * MINUTE);
    const user = newUserRecord(tenant.org.id, uuidv7(at.getTime()), at, {
      email: `worker${i}@indexed.example`,
      first: 'Worker',
      last: `Name${String((i * 7919) % COUNT).padStart(4, '0')}`,
      jobRole: i % 3 === 2 ? null : (jobRoles[i % 3] ?? null),
    });
    return i % 15 === 4
      ? indexed(users, { ...user, attributes: { ...user.attributes, status: 'suspended' } })
      : user;
  });
  await bulkPutCounted(people);
}, 60_000);
afterAll(() => api.close());

const at = (i: number) => new Date(START + i * MINUTE).toISOString();
const idsOf = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);
const byCreation = (keep: (user: StoredResource) => boolean) => people.filter(keep).map((u) => u.id);
const lastNameOf = (user: StoredResource) =>
  String((user.attributes.profile as { personal: { last_name: string } }).personal.last_name);
const byLastName = (keep: (user: StoredResource) => boolean) =>
  people
    .filter(keep)
    .sort((a, b) => compareCollated(lastNameOf(a), lastNameOf(b)))
    .map((u) => u.id);
const suspended = (user: StoredResource) => user.attributes.status === 'suspended';
const holds = (role: number) => (user: StoredResource) => user.rels.job_role === jobRoles[role];
const since = (i: number) => (user: StoredResource) => String(user.meta.created_at) >= at(i);

/** A list's reads besides authentication, measured on its second sending (see children-paging.test.ts). */
const measured = (path: string) => measuredGet(api, token, path);

describe('users: indexed filters answer what the partition filter answered', () => {
  const cases: [string, () => string[]][] = [
    ['filter[status]=suspended', () => byLastName(suspended)],
    ['filter[status]=suspended&sort=-created_at', () => byCreation(suspended).reverse()],
    [
      'filter[email]=worker42@indexed.example',
      () => byCreation((u) => u.attributes.email === 'worker42@indexed.example'),
    ],
    ['filter[email]=WORKER42@indexed.example', () => []],
    ['filter[job_role]=ROLE1&sort=created_at', () => byCreation(holds(1))],
    [
      'filter[job_role]=ROLE0&sort=-email',
      () =>
        people
          .filter(holds(0))
          .sort((x, y) => compareCollated(y.attributes.email, x.attributes.email))
          .map((u) => u.id),
    ],
    [`filter[created_at.since]=${at(200)}&sort=created_at`, () => byCreation(since(200))],
    [
      `filter[status]=suspended&filter[job_role]=ROLE0&filter[created_at.since]=${at(100)}&sort=created_at`,
      () => byCreation((u) => suspended(u) && holds(0)(u) && since(100)(u)),
    ],
  ];
  const named = (query: string) => query.replace(/ROLE(\d)/, (_, n: string) => jobRoles[Number(n)] ?? '');

  it('by offset, every page and the total are those of the unindexed read', async () => {
    for (const [query, expected] of cases) {
      const res = await api.get(`${base()}?${named(query)}&page[limit]=100`, token);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(idsOf(res.body), query).toEqual(expected().slice(0, 100));
      expect(res.body.meta.pagination.counts.resources, query).toBe(expected().length);
    }
  });

  it('by cursor, the walk gives every match once, in the same order', async () => {
    for (const [query, expected] of cases) {
      const walked = await idsByCursor(api, `${base()}?${named(query)}&page[limit]=7&page[cursor]=`, token);
      expect(walked, query).toEqual(expected());
    }
  });
});

describe('users: an indexed filter reads what its page returns', () => {
  it('a cursor page reads at most 1.1× the items it returns, in the same calls at page sizes 5 and 20', async () => {
    const queries = [
      'filter[status]=suspended&sort=created_at',
      'filter[email]=worker200@indexed.example',
      `filter[job_role]=${jobRoles[1]}&sort=created_at`,
      `filter[created_at.since]=${at(100)}&sort=created_at`,
    ];
    const paths = queries.map((query) => `${base()}?${query}`);
    await expectCursorPagesRead(measured, paths, { limits: [5, 20] });
  });

  it('an offset page of filter[status] reads its page and the count kept for the status, not every match', async () => {
    const calls = new Set<number>();
    for (const [offset, limit] of [
      [0, 5],
      [10, 5],
    ] as const) {
      const page = await measured(
        `${base()}?filter[status]=suspended&sort=created_at&page[offset]=${offset}&page[limit]=${limit}`,
      );
      expect(page.body.meta.pagination.counts.resources).toBe(COUNT / 15);
      expect(page.body.data).toHaveLength(limit);
      expect(page.items).toBe(offset + limit + 1);
      calls.add(page.calls);
    }
    expect(calls.size).toBe(1);
  });

  it('meta.features names every filter indexed, so none is refused alone', async () => {
    const res = await api.get(`${base()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter).toEqual({
      options: ['status', 'email', 'job_role', 'created_at.since', 'created_at.until'],
      indexed: ['status', 'email', 'job_role', 'created_at.since', 'created_at.until'],
    });
  });
});

describe('users: a common counted value in a sort its own index keeps reads that index, not every match', () => {
  /** The reference: the unfiltered list by last name (the sort index, no filter), its active members. */
  const unfiltered = async (descending: boolean) => {
    const query = `sort=${descending ? '-' : ''}last_name&page[limit]=100&page[cursor]=`;
    const all = await idsByCursor(api, `${base()}?${query}`, token);
    const suspendedIds = new Set(people.filter(suspended).map((u) => u.id));
    return all.filter((id) => !suspendedIds.has(id));
  };
  const relative = (link: string) => `${new URL(link).pathname}${new URL(link).search}`;
  /** The type's count on its counter item (the seeded users and the tenant's administrator). */
  const storedCount = async () => {
    const out = await documents.send(
      new GetCommand({ TableName: tableName, Key: counterKey(tenant.org.id, 'users') }),
    );
    return out.Item?.count as number;
  };
  /** Sets the type's count on its counter item: the share a value's count is of it decides the path. */
  const setCount = (count: number) =>
    documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: counterKey(tenant.org.id, 'users'),
        UpdateExpression: 'SET #count = :count',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':count': count },
      }),
    );

  it('filter[status]=active by last name answers as before, by offset and by cursor, both directions', async () => {
    for (const descending of [false, true]) {
      const expected = await unfiltered(descending);
      const query = `filter[status]=active&sort=${descending ? '-' : ''}last_name`;
      const first = await api.get(`${base()}?${query}&page[limit]=20&page[offset]=40`, token);
      expect(idsOf(first.body), query).toEqual(expected.slice(40, 60));
      expect(first.body.meta.pagination.counts.resources, query).toBe(expected.length);
      expect(await idsByCursor(api, `${base()}?${query}&page[limit]=9&page[cursor]=`, token), query).toEqual(
        expected,
      );
    }
  });

  it('a cursor page of the common value (14 in 15 users) reads at most 1.1 × returned ÷ share items, plus its counter, at page sizes 20 and 50', async () => {
    const expected = await unfiltered(false);
    const share = expected.length / (await storedCount());
    const calls: number[] = [];
    for (const limit of [20, 50]) {
      const page = await measured(`${base()}?filter[status]=active&page[limit]=${limit}&page[cursor]=`);
      expect(idsOf(page.body)).toEqual(expected.slice(0, limit));
      expect(page.items, `at ${limit}`).toBeLessThanOrEqual(Math.ceil((1.1 * limit) / share) + 1);
      calls.push(page.calls);
    }
    expect(calls[0]).toBe(calls[1]);
  });

  it('a rare value (1 in 15) still reads its own index: its matches and the counter, never the partition', async () => {
    const page = await measured(`${base()}?filter[status]=suspended&page[limit]=5&page[cursor]=`);
    expect(idsOf(page.body)).toEqual(byLastName(suspended).slice(0, 5));
    expect(page.items).toBe(COUNT / 15 + 1);
  });

  it('a cursor is valid on both paths: a walk whose value turns rare midway resumes where it stopped', async () => {
    const expected = await unfiltered(false);
    const path = `${base()}?filter[status]=active&page[limit]=50&page[cursor]=`;
    const first = await api.get(path, token);
    expect(idsOf(first.body)).toEqual(expected.slice(0, 50));
    const count = await storedCount();
    try {
      // The type's count raised so far that the active users' share is rare: the value's own index answers.
      await setCount(1_000_000_000);
      const next = await measured(relative(first.body.links.next));
      expect(next.items).toBeGreaterThanOrEqual(expected.length);
      expect(idsOf(next.body)).toEqual(expected.slice(50, 100));
      await setCount(count);
      const third = await measured(relative(next.body.links.next));
      expect(third.items).toBeLessThan(expected.length);
      expect(idsOf(third.body)).toEqual(expected.slice(100, 150));
    } finally {
      await setCount(count);
    }
  });
});

describe('users: writes keep the index entries and the counts', () => {
  it('a change of job role moves the user between the roles’ lists; a suspension moves the status count', async () => {
    const [user] = people.filter((u) => !suspended(u) && holds(0)(u));
    if (!user) throw new Error('no user');
    const listed = async (query: string) => {
      const res = await api.get(`${base()}?${query}&sort=created_at&page[limit]=100`, token);
      return { ids: idsOf(res.body), total: res.body.meta.pagination.counts.resources as number };
    };
    const before = await listed('filter[status]=suspended');
    const patched = await api.request('PATCH', `/v3/users/${user.id}`, {
      token,
      body: {
        data: {
          type: 'users',
          id: user.id,
          relationships: { job_role: { data: { type: 'job-roles', id: jobRoles[1] } } },
        },
      },
    });
    expect(patched.status, patched.text).toBe(200);
    expect((await listed(`filter[job_role]=${jobRoles[0]}`)).ids).not.toContain(user.id);
    expect((await listed(`filter[job_role]=${jobRoles[1]}`)).ids).toContain(user.id);
    const cleared = await api.request('PATCH', `/v3/users/${user.id}`, {
      token,
      body: { data: { type: 'users', id: user.id, relationships: { job_role: { data: null } } } },
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect((await listed(`filter[job_role]=${jobRoles[1]}`)).ids).not.toContain(user.id);

    // A user who signs in (their principal follows their status): made as the API makes one.
    const worker = await createUser(tenant.org.id, {
      email: 'suspended@indexed.example',
      first_name: 'Sam',
      last_name: 'Suspended',
    });
    const moved = await api.request('POST', `/v3/users/${worker.id}/suspend`, { token });
    expect(moved.status, moved.text).toBe(200);
    const after = await listed('filter[status]=suspended');
    expect(after.ids).toContain(worker.id);
    expect(after.total).toBe(before.total + 1);
  });
});
