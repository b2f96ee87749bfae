/**
 * The indexed filters' migrations (issue 42, item 1): records written before their filters were answered
 * from indexes lack the entries and the counts, so the filters never found them; after the migration they
 * are found, and counted, as records written today are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUserRecord } from '#functions/people/joining';
import { qualificationAwards } from '#functions/qualifications/definitions';
import { uuidv7 } from '#shared/data/ids';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { createUser } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
let jobRole: string;
let oldUsers: StoredResource[];
let newUserId: string;
let oldAwards: StoredResource[];
const PERSON = '019c0000-0000-7000-8000-0000000000aa';
const TYPE = '019c0000-0000-7000-9000-0000000000bb';

/**
 * As `newUserRecord` wrote a user before their filters were indexed (b2062c3): the record with its sort
 * values, no entry under its status (`gsi1`) or job role (`gsi2`), in no status count.
 */
const userBeforeFilterIndex = async (orgId: string, i: number, role: string | null) => {
  const at = new Date();
  const {
    gsi1pk: _,
    gsi1sk: __,
    gsi2pk: ___,
    gsi2sk: ____,
    counted: _____,
    ...user
  } = newUserRecord(orgId, uuidv7(at.getTime()), at, {
    email: `old${i}@filters.example`,
    first: 'Olive',
    last: `Old${i}`,
    jobRole: role,
  });
  await commit(scopeOf([orgId]), [{ create: user }]);
  return user;
};

/**
 * As `createAward` wrote one before its filters were indexed (b2062c3): the record with its expiry's sort
 * value, no entry under its status (`gsi1`), qualification type (`gsi2`) or person (`lsi2`), in no count.
 */
const awardBeforeFilterIndex = async (orgId: string, status: string) => {
  const {
    gsi1pk: _,
    gsi1sk: __,
    gsi2pk: ___,
    gsi2sk: ____,
    lsi2: _____,
    counted: ______,
    ...award
  } = newRecord(qualificationAwards, orgId, {
    attributes: { status, issued_at: '2025-01-01', expires_at: '2027-01-01', number: 'OLD-1', notes: null },
    rels: { person: PERSON, qualification_type: TYPE },
  });
  await commit(scopeOf([orgId]), [{ create: award }]);
  return award;
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Old filters', 0);
  token = await api.token(tenant.admin);
  const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/people/job-roles`, {
    token,
    body: { data: { type: 'job-roles', attributes: { name: 'Fitter', code: 'FIT' } } },
  });
  expect(role.status, role.text).toBe(201);
  jobRole = role.body.data.id;
  oldUsers = [
    await userBeforeFilterIndex(tenant.org.id, 1, jobRole),
    await userBeforeFilterIndex(tenant.org.id, 2, null),
  ];
  oldAwards = [
    await awardBeforeFilterIndex(tenant.org.id, 'valid'),
    await awardBeforeFilterIndex(tenant.org.id, 'expired'),
  ];
  newUserId = (
    await createUser(tenant.org.id, { email: 'new@filters.example', first_name: 'Nia', last_name: 'New' })
  ).id;
});
afterAll(async () => {
  await api?.close();
});

const usersWhere = async (query: string) => {
  const res = await api.get(
    `/v3/orgs/${tenant.org.id}/people/users?${query}&sort=created_at&page[limit]=100`,
    token,
  );
  expect(res.status, res.text).toBe(200);
  return {
    ids: (res.body.data as { id: string }[]).map((u) => u.id),
    total: res.body.meta.pagination.counts.resources as number,
  };
};

const awardsWhere = async (query: string) => {
  const res = await api.get(
    `/v3/orgs/${tenant.org.id}/qualifications/awards?${query}&sort=created_at&page[limit]=100`,
    token,
  );
  expect(res.status, res.text).toBe(200);
  return {
    ids: (res.body.data as { id: string }[]).map((a) => a.id),
    total: res.body.meta.pagination.counts.resources as number,
  };
};

describe('before the filter index migrations: records written before their filters were indexed', () => {
  it('users: filter[status] and filter[job_role] miss them and the status count leaves them out', async () => {
    expect(await usersWhere('filter[status]=active')).toEqual({ ids: [newUserId], total: 1 });
    expect((await usersWhere(`filter[job_role]=${jobRole}`)).ids).toEqual([]);
  });

  it('awards: filter[status], filter[person] and filter[qualification_type] miss them', async () => {
    expect(await awardsWhere('filter[status]=valid')).toEqual({ ids: [], total: 0 });
    expect((await awardsWhere(`filter[person]=${PERSON}`)).ids).toEqual([]);
    expect((await awardsWhere(`filter[qualification_type]=${TYPE}`)).ids).toEqual([]);
  });
});

describe('the filter index migrations', () => {
  let run: Awaited<ReturnType<typeof migrate>>;
  const read = (records: StoredResource[], path: string) =>
    Promise.all(records.map((r) => api.get(`${path}/${r.id}`, token)));
  let usersBefore: Awaited<ReturnType<typeof read>>;
  let awardsBefore: Awaited<ReturnType<typeof read>>;
  beforeAll(async () => {
    usersBefore = await read(oldUsers, '/v3/users');
    awardsBefore = await read(oldAwards, '/v3/qualification-awards');
    run = await migrate();
    expect(run.finished).toBe(true);
  });

  it('users: found and counted as users written today, and read back as they did', async () => {
    expect(run.ran.find((m) => m.name === 'user-filter-index')).toMatchObject({ changed: 2 });
    const [withRole, without] = oldUsers.map((u) => u.id);
    expect(await usersWhere('filter[status]=active')).toEqual({
      ids: [withRole, without, newUserId],
      total: 3,
    });
    expect(await usersWhere(`filter[job_role]=${jobRole}`)).toEqual({ ids: [withRole], total: 1 });
    const after = await read(oldUsers, '/v3/users');
    expect(after.map((res) => res.body)).toEqual(usersBefore.map((res) => res.body));
  });

  it('awards: found and counted as awards written today, and read back as they did', async () => {
    expect(run.ran.find((m) => m.name === 'award-filter-index')).toMatchObject({ changed: 2 });
    const [valid, expired] = oldAwards.map((a) => a.id);
    expect(await awardsWhere('filter[status]=valid')).toEqual({ ids: [valid], total: 1 });
    expect(await awardsWhere('filter[status]=expired')).toEqual({ ids: [expired], total: 1 });
    expect(await awardsWhere(`filter[person]=${PERSON}`)).toEqual({ ids: [valid, expired], total: 2 });
    expect(await awardsWhere(`filter[qualification_type]=${TYPE}&filter[number]=OLD-1`)).toEqual({
      ids: [valid, expired],
      total: 2,
    });
    const after = await read(oldAwards, '/v3/qualification-awards');
    expect(after.map((res) => res.body)).toEqual(awardsBefore.map((res) => res.body));
  });

  it('run again from scratch, every migration changes no record and writes nothing but its progress', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
  });
});
