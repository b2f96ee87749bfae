/**
 * Polymorphic relationships (issue 41, item 3), end to end through the generic handlers against DynamoDB
 * Local, on a test-only type (`test/support/polymorphic-type.ts`: an assignment whose `assignee` is a user,
 * a team or a job role). Writes name one of the declared types and a record of the organisation; reads
 * answer `{type, id}`; `include=assignee` reads each type it names in one batch; `filter[assignee]` and
 * `filter[assignee.type]` select by it. Tenant isolation: another organisation's record named as the
 * assignee is refused as a missing one is, and is never included.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '#shared/routes';
import { startTestApi, type TestApi } from '../support/api';
import { assignmentsApi } from '../support/polymorphic-type';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let mine: ReturnType<typeof assignmentsApi>;
let theirs: ReturnType<typeof assignmentsApi>;
/** One record of each assignable type, in each organisation. */
const ids = {
  mine: { users: '', teams: '', 'job-roles': '' },
  theirs: { users: '', teams: '', 'job-roles': '' },
};

const makeTargets = async (t: Tenant, token: string) => {
  const [person] = t.people;
  const role = await api.request('POST', `/v3/orgs/${t.org.id}/people/job-roles`, {
    token,
    body: {
      data: {
        type: 'job-roles',
        attributes: { name: 'Supervisor', code: `SUP-${randomUUID().slice(0, 8)}` },
      },
    },
  });
  const team = await api.request('POST', `/v3/orgs/${t.org.id}/people/teams`, {
    token,
    body: {
      data: {
        type: 'teams',
        attributes: { name: 'Night crew', description: 'Made by a test.' },
        relationships: { members: { data: [{ type: 'users', id: person?.id }] } },
      },
    },
  });
  expect(role.status, role.text).toBe(201);
  expect(team.status, team.text).toBe(201);
  return {
    users: person?.id ?? '',
    teams: team.body.data.id as string,
    'job-roles': role.body.data.id as string,
  };
};

const assignment = (type: string, id: string | null, title = 'Check the valve chamber') => ({
  data: {
    type: 'test-assignments',
    attributes: { title },
    relationships: { assignee: { data: id === null ? null : { type, id } } },
  },
});

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Poly Org', 1), newTenant('Poly Other', 1)]);
  const [tokenMine, tokenTheirs] = await Promise.all([api.token(tenant.admin), api.token(other.admin)]);
  [ids.mine, ids.theirs] = await Promise.all([
    makeTargets(tenant, tokenMine),
    makeTargets(other, tokenTheirs),
  ]);
  mine = assignmentsApi(tokenMine, tenant.org.id);
  theirs = assignmentsApi(tokenTheirs, other.org.id);
});
afterAll(() => api.close());

describe('a polymorphic relationship names a record of one of its declared types', () => {
  it('a create may name each declared type: 201, and the answer and a read carry relationships.assignee {type, id}', async () => {
    for (const type of ['users', 'teams', 'job-roles'] as const) {
      const created = await mine.create(assignment(type, ids.mine[type]));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data.relationships.assignee).toEqual({ data: { type, id: ids.mine[type] } });
      const read = await mine.get(created.body.data.id);
      expect(read.status).toBe(200);
      expect(read.body.data.relationships.assignee).toEqual({ data: { type, id: ids.mine[type] } });
    }
  });

  it('a type the relationship does not name is 400 at /data/relationships/assignee/data/type, and nothing is written', async () => {
    const before = await mine.list('filter[assignee.type]=users');
    const refused = await mine.create(assignment('vehicles', ids.mine.users));
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].source).toEqual({ pointer: '/data/relationships/assignee/data/type' });
    const after = await mine.list('filter[assignee.type]=users');
    expect(after.body.meta.pagination.total).toBe(before.body.meta.pagination.total);
  });

  it('an id of one declared type sent as another is 400 at the relationship: the record must exist under the type named', async () => {
    const refused = await mine.create(assignment('teams', ids.mine['job-roles']));
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({
      detail: 'No such record in this organisation.',
      source: { pointer: '/data/relationships/assignee/data' },
    });
  });

  it('no assignee is allowed (data: null), and answers data: null', async () => {
    const created = await mine.create(assignment('users', null));
    expect(created.status).toBe(201);
    expect(created.body.data.relationships.assignee).toEqual({ data: null });
  });
});

describe('tenant isolation: another organisation’s record is as missing as an unknown one', () => {
  it('naming another organisation’s user, team or job role is 400 “No such record in this organisation”, the same answer as a random id', async () => {
    for (const type of ['users', 'teams', 'job-roles'] as const) {
      const foreign = await mine.create(assignment(type, ids.theirs[type]));
      const unknown = await mine.create(assignment(type, randomUUID()));
      expect(foreign.status, type).toBe(400);
      expect(foreign.body.errors[0].source).toEqual({ pointer: '/data/relationships/assignee/data' });
      expect({ ...foreign.body.errors[0], id: undefined }).toEqual({
        ...unknown.body.errors[0],
        id: undefined,
      });
    }
  });

  it('include=assignee never brings another organisation’s record, nor does a filter naming one find anything', async () => {
    const listed = await mine.list(`include=assignee&filter[assignee]=users:${ids.theirs.users}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
    const everything = await mine.list('include=assignee&page[limit]=100');
    const theirIds = new Set(Object.values(ids.theirs));
    expect(everything.body.included.filter((r: { id: string }) => theirIds.has(r.id))).toEqual([]);
    const other = await theirs.list('include=assignee');
    expect(other.body.data).toEqual([]);
  });
});

describe('include and filters', () => {
  it('include=assignee brings records of each type the page names, each once, as their own types', async () => {
    const listed = await mine.list('include=assignee&page[limit]=100');
    expect(listed.status).toBe(200);
    const included = listed.body.included
      .map((r: { type: string; id: string }) => `${r.type}:${r.id}`)
      .sort();
    expect(included).toEqual(
      [`job-roles:${ids.mine['job-roles']}`, `teams:${ids.mine.teams}`, `users:${ids.mine.users}`].sort(),
    );
    expect(listed.body.meta.features.params.include.options).toEqual(['assignee']);
    const one = listed.body.data.find(
      (r: { relationships: { assignee: { data: unknown } } }) => r.relationships.assignee.data,
    );
    const read = await mine.get(one.id, 'include=assignee');
    expect(read.body.included).toHaveLength(1);
    expect(read.body.included[0]).toMatchObject(one.relationships.assignee.data);
  });

  it('filter[assignee]=<type>:<id> selects the records naming that record; filter[assignee.type] those naming one of that type', async () => {
    const byTeam = await mine.list(`filter[assignee]=teams:${ids.mine.teams}`);
    expect(byTeam.status).toBe(200);
    expect(
      byTeam.body.data.map((r: { relationships: { assignee: unknown } }) => r.relationships.assignee),
    ).toEqual([{ data: { type: 'teams', id: ids.mine.teams } }]);
    const roles = await mine.list('filter[assignee.type]=job-roles');
    expect(roles.body.data.length).toBeGreaterThan(0);
    for (const r of roles.body.data) expect(r.relationships.assignee.data.type).toBe('job-roles');
    // The same id under another type names no record.
    const wrongType = await mine.list(`filter[assignee]=users:${ids.mine.teams}`);
    expect(wrongType.body.data).toEqual([]);
    expect(byTeam.body.meta.features.params.filter.options).toEqual([
      'assignee',
      'assignee.type',
      'created_at.since',
      'created_at.until',
    ]);
  });

  it('a filter value of an undeclared type, or not <type>:<id>, is 400 naming the parameter and the types', async () => {
    for (const query of [
      `filter[assignee]=vehicles:${ids.mine.users}`,
      `filter[assignee]=${ids.mine.users}`,
      'filter[assignee]=users:not-an-id',
      'filter[assignee.type]=vehicles',
    ]) {
      const refused = await mine.list(query);
      expect(refused.status, query).toBe(400);
      const parameter = query.slice(0, query.indexOf('='));
      expect(refused.body.errors[0].source, query).toEqual({ parameter });
      expect(refused.body.errors[0].detail, query).toContain('users, teams, job-roles');
    }
  });
});
