/**
 * Users as their organisation administers them (issue 21, "Users"; spec: User table): the collection with
 * its filters and includes, a user's own profile (`users:self`), validated profile dates, language tags
 * and time zones, status changes that end the user's sessions at once, and job roles held.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '#shared/auth/sessions';
import { createTeam, createUser, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents, latestEvent } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
/** An administrator user's session, and a viewer user's. */
let admin: Record<string, string>;
let viewer: Record<string, string>;
let adminId: string;
let viewerId: string;
let outsider: string;

const session = async (userId: string) => ({ 'x-session-token': (await startSession(userId)).token });

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Users Org', 2), newTenant('Users Other', 1)]);
  [adminId, viewerId] = tenant.people.map((p) => p.id) as [string, string];
  await grantRole(tenant.org.id, 'admin', 'user', adminId);
  await grantRole(tenant.org.id, 'viewer', 'user', viewerId);
  admin = await session(adminId);
  viewer = await session(viewerId);
  outsider = await api.token(other.admin);
});
afterAll(() => api.close());

const usersPath = (query = '', orgId = tenant.org.id) => `/v3/orgs/${orgId}/people/users${query}`;
const patch = (id: string, body: object, headers = admin) =>
  api.request('PATCH', `/v3/users/${id}`, { headers, body: { data: { type: 'users', id, ...body } } });
const whoami = (headers: Record<string, string>) => api.request('GET', '/v3/whoami', { headers });

/** A user of the tenant with a session of their own, for tests that change them. */
const newMember = async (name: string, role = 'viewer') => {
  const user = await createUser(tenant.org.id, {
    email: `${name.toLowerCase()}@users-org.example`,
    first_name: name,
    last_name: 'Member',
  });
  await grantRole(tenant.org.id, role, 'user', user.id);
  return { id: user.id, headers: await session(user.id) };
};

describe('GET /v3/orgs/{org_id}/people/users (users:view)', () => {
  it('lists the organisation’s users with status and profile, sorted by last name; a viewer may list', async () => {
    const res = await api.request('GET', usersPath(), { headers: viewer });
    expect(res.status, res.text).toBe(200);
    const ids = res.body.data.map((u: { id: string }) => u.id);
    expect(ids).toEqual(expect.arrayContaining([adminId, viewerId]));
    expect(ids).not.toContain(other.people[0]?.id);
    const lastNames = res.body.data.map(
      (u: { attributes: { profile: { personal: { last_name: string } } } }) =>
        u.attributes.profile.personal.last_name.toLowerCase(),
    );
    expect(lastNames).toEqual([...lastNames].sort());
    const [first] = res.body.data;
    expect(first.attributes).toMatchObject({
      email: expect.any(String),
      status: 'active',
      profile: { personal: { last_name: expect.any(String) }, settings: { timezone: 'Europe/London' } },
    });
    expect(first.links.self).toBe(`${api.url}/v3/users/${first.id}`);
    expect(first.meta.grants).toEqual(expect.any(Array));
    expect(res.body.meta.features.params).toEqual({
      // Every filter is indexed (issue 42): `indexed` names them all.
      filter: {
        options: ['status', 'email', 'job_role', 'created_at.since', 'created_at.until'],
        indexed: ['status', 'email', 'job_role', 'created_at.since', 'created_at.until'],
      },
      include: { options: ['teams', 'job_role'] },
      sort: { options: ['last_name', 'email', 'created_at'] },
    });
  });

  it('filter[email], filter[status] and filter[job_role] narrow the list; include=teams,job_role includes them', async () => {
    const email = tenant.people[1]?.attributes.email as string;
    const byEmail = await api.request('GET', usersPath(`?filter[email]=${encodeURIComponent(email)}`), {
      headers: admin,
    });
    expect(byEmail.body.data.map((u: { id: string }) => u.id)).toEqual([viewerId]);

    const member = await newMember('Filtered');
    const team = await createTeam(tenant.org.id, {
      name: 'Night shift',
      description: '',
      memberIds: [member.id],
    });
    const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/people/job-roles`, {
      headers: admin,
      body: { data: { type: 'job-roles', attributes: { name: 'Ganger', code: 'GANG' } } },
    });
    const roleId = role.body.data.id as string;
    expect(
      (await patch(member.id, { relationships: { job_role: { data: { type: 'job-roles', id: roleId } } } }))
        .status,
    ).toBe(200);
    const held = await api.request('GET', usersPath(`?filter[job_role]=${roleId}&include=teams,job_role`), {
      headers: admin,
    });
    expect(held.status, held.text).toBe(200);
    expect(held.body.data.map((u: { id: string }) => u.id)).toEqual([member.id]);
    expect(held.body.data[0].relationships.job_role.data).toEqual({ type: 'job-roles', id: roleId });
    expect(held.body.included.map((r: { type: string; id: string }) => `${r.type}/${r.id}`).sort()).toEqual(
      [`job-roles/${roleId}`, `teams/${team.id}`].sort(),
    );

    expect((await patch(member.id, { attributes: { status: 'suspended' } })).status).toBe(200);
    const suspended = await api.request('GET', usersPath('?filter[status]=suspended'), { headers: admin });
    expect(suspended.body.data.map((u: { id: string }) => u.id)).toEqual([member.id]);
  });

  it('another organisation’s users are 404, listed or read one by one', async () => {
    expect((await api.get(usersPath('', tenant.org.id), outsider)).status).toBe(404);
    expect((await api.get(`/v3/users/${adminId}`, outsider)).status).toBe(404);
  });
});

describe('PATCH /v3/users/{user_id}: the profile', () => {
  it('an administrator changes one group member at a time; the other members and groups stay', async () => {
    const member = await newMember('Profiled');
    const res = await patch(member.id, {
      attributes: {
        profile: {
          work: { occupation: 'Jointer', start_date: '2024-02-29', cscs: '1234567' },
          address: { three_word_address: '///filled.count.soap', postcode: 'LS1 4DY' },
          settings: { preferred_language: 'cy-gb', timezone: 'europe/london' },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    const { profile } = res.body.data.attributes;
    expect(profile.work).toEqual({
      occupation: 'Jointer',
      cscs: '1234567',
      eusr: null,
      start_date: '2024-02-29',
    });
    expect(profile.personal.first_name).toBe('Profiled');
    expect(profile.address).toMatchObject({
      three_word_address: '///filled.count.soap',
      postcode: 'LS1 4DY',
      country_code: 'GB',
    });
    // Stored as written canonically: the language tag's case and the time zone's spelling.
    expect(profile.settings).toEqual({ preferred_language: 'cy-GB', timezone: 'Europe/London' });
    const read = await api.request('GET', `/v3/users/${member.id}`, { headers: viewer });
    expect(read.body.data.attributes.profile).toEqual(profile);
  });

  it.each([
    [
      'a date that is not a day',
      { work: { start_date: '2023-02-29' } },
      '/data/attributes/profile/work/start_date',
    ],
    [
      'a date with a time',
      { personal: { dob: '1990-01-01T00:00:00Z' } },
      '/data/attributes/profile/personal/dob',
    ],
    [
      'a date before 1900 (dates fall within the years 1900–2200)',
      { personal: { dob: '1899-12-31' } },
      '/data/attributes/profile/personal/dob',
    ],
    [
      'a language that is no BCP 47 tag',
      { settings: { preferred_language: 'en_GB' } },
      '/data/attributes/profile/settings/preferred_language',
    ],
    [
      'a fixed offset for a time zone',
      { settings: { timezone: '+01:00' } },
      '/data/attributes/profile/settings/timezone',
    ],
    [
      'an unknown time zone',
      { settings: { timezone: 'Mars/Olympus_Mons' } },
      '/data/attributes/profile/settings/timezone',
    ],
    ['an unknown member', { work: { salary: 1 } }, '/data/attributes/profile/work/salary'],
    [
      'not three words',
      { address: { three_word_address: 'filled.count' } },
      '/data/attributes/profile/address/three_word_address',
    ],
  ])('%s is 400 with a pointer, and nothing is written', async (_, profile, pointer) => {
    const before = await api.request('GET', `/v3/users/${viewerId}`, { headers: admin });
    const res = await patch(viewerId, { attributes: { profile } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe(pointer);
    const after = await api.request('GET', `/v3/users/${viewerId}`, { headers: admin });
    expect(after.body.data).toEqual(before.body.data);
  });

  it('a user changes their own profile with users:self, but not another’s, nor their own status or job role', async () => {
    const mine = await patch(
      viewerId,
      { attributes: { profile: { contact: { mobile: '07700 900123' } } } },
      viewer,
    );
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.data.attributes.profile.contact.mobile).toBe('07700 900123');
    const theirs = await patch(adminId, { attributes: { profile: { contact: { mobile: '0' } } } }, viewer);
    expect(theirs.status, theirs.text).toBe(403);
    const status = await patch(viewerId, { attributes: { status: 'deactivated' } }, viewer);
    expect(status.status, status.text).toBe(403);
    const role = await patch(viewerId, { relationships: { job_role: { data: null } } }, viewer);
    expect(role.status, role.text).toBe(403);
  });

  it('an administrator cannot change their own status (no locking oneself out)', async () => {
    const res = await patch(adminId, { attributes: { status: 'suspended' } });
    expect(res.status, res.text).toBe(403);
    expect((await whoami(admin)).status).toBe(200);
  });
});

describe('status: active → suspended → active, and → deactivated', () => {
  it('suspending ends the user’s sessions at once; reactivating does not bring them back', async () => {
    const member = await newMember('Suspended');
    expect((await whoami(member.headers)).status).toBe(200);
    const suspended = await patch(member.id, { attributes: { status: 'suspended' } });
    expect(suspended.status, suspended.text).toBe(200);
    expect(suspended.body.data.attributes.status).toBe('suspended');
    const refused = await whoami(member.headers);
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].code).toBe('AUTH.001');
    // A session started while suspended is refused too.
    expect((await whoami(await session(member.id))).status).toBe(401);

    expect((await patch(member.id, { attributes: { status: 'active' } })).status).toBe(200);
    expect((await whoami(member.headers)).status).toBe(401);
    expect((await whoami(await session(member.id))).status).toBe(200);
  });

  it('each change is an event of its own (user.suspended, .reactivated, .deactivated) and an audit entry', async () => {
    const member = await newMember('Evented');
    for (const status of ['suspended', 'active', 'deactivated'])
      expect((await patch(member.id, { attributes: { status } })).status).toBe(200);
    for (const name of ['user.suspended', 'user.reactivated', 'user.deactivated']) {
      const event = await latestEvent(tenant.org.id, name, member.id);
      expect(event.actor).toEqual({ kind: 'user', id: adminId });
    }
    await deliverEvents(tenant.org.id);
    const audit = await api.request(
      'GET',
      `/v3/orgs/${tenant.org.id}/audit-events?filter[subject_id]=${member.id}`,
      {
        headers: admin,
      },
    );
    expect(audit.status, audit.text).toBe(200);
    const entries = audit.body.data.map(
      (e: { attributes: { action: string; before: unknown; after: unknown } }) => e.attributes,
    );
    expect(entries.map((e: { action: string }) => e.action)).toEqual([
      'user.deactivated',
      'user.reactivated',
      'user.suspended',
      'user.created',
    ]);
    expect(entries[0]).toMatchObject({
      before: { attributes: { status: 'active' } },
      after: { attributes: { status: 'deactivated' } },
    });
  });

  it('deactivated is final but for reactivation: deactivated → suspended is 409 at /data/attributes/status', async () => {
    const member = await newMember('Deactivated');
    expect((await patch(member.id, { attributes: { status: 'deactivated' } })).status).toBe(200);
    expect((await whoami(member.headers)).status).toBe(401);
    const res = await patch(member.id, { attributes: { status: 'suspended' } });
    expect(res.status, res.text).toBe(409);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/status');
    expect((await patch(member.id, { attributes: { status: 'active' } })).status).toBe(200);
  });

  it('an unknown status is 400; a viewer (no users:manage) cannot suspend anyone', async () => {
    const member = await newMember('Unchanged');
    expect((await patch(member.id, { attributes: { status: 'banned' } })).status).toBe(400);
    expect((await patch(member.id, { attributes: { status: 'suspended' } }, viewer)).status).toBe(403);
    expect((await whoami(member.headers)).status).toBe(200);
  });
});

describe('the declared machine: POST /v3/users/{user_id}/suspend|deactivate|reactivate', () => {
  const move = (id: string, verb: string, headers = admin) =>
    api.request('POST', `/v3/users/${id}/${verb}`, { headers });
  const read = (id: string, headers = admin) => api.request('GET', `/v3/users/${id}`, { headers });

  it('allowed_transitions on a user: an administrator may suspend or deactivate an active member, not reactivate', async () => {
    const member = await newMember('Allowed');
    const res = await read(member.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.meta.allowed_transitions).toEqual([
      { verb: 'suspend', allowed: true, reasons: [] },
      { verb: 'deactivate', allowed: true, reasons: [] },
      { verb: 'reactivate', allowed: false, reasons: ['A user active cannot be reactivated.'] },
    ]);
  });

  it('nobody moves themself, and a viewer moves nobody: the reasons are data, and the route is 403', async () => {
    const own = await read(adminId);
    expect(own.body.data.meta.allowed_transitions[0]).toEqual({
      verb: 'suspend',
      allowed: false,
      reasons: ['You cannot change your own status.'],
    });
    const refused = await move(adminId, 'suspend');
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.errors[0].detail).toBe('You cannot change your own status.');
    expect((await whoami(admin)).status).toBe(200);
    const member = await newMember('Unmoved');
    const viewed = await read(member.id, viewer);
    expect(viewed.body.data.meta.allowed_transitions[1]).toEqual({
      verb: 'deactivate',
      allowed: false,
      reasons: ['Needs the users:manage permission.'],
    });
    expect((await move(member.id, 'deactivate', viewer)).status).toBe(403);
    expect((await whoami(member.headers)).status).toBe(200);
  });

  it('suspend ends the user’s sessions in the move’s transaction; reactivate lets new ones in; each is its event with from and to', async () => {
    const member = await newMember('Routed');
    const suspended = await move(member.id, 'suspend');
    expect(suspended.status, suspended.text).toBe(200);
    expect(suspended.body.data.attributes.status).toBe('suspended');
    expect((await whoami(member.headers)).status).toBe(401);
    const event = await latestEvent(tenant.org.id, 'user.suspended', member.id);
    expect(event.data).toMatchObject({ transition: { verb: 'suspend', from: 'active', to: 'suspended' } });
    const reactivated = await move(member.id, 'reactivate');
    expect(reactivated.status, reactivated.text).toBe(200);
    expect(
      reactivated.body.data.meta.allowed_transitions.map((t: { allowed: boolean }) => t.allowed),
    ).toEqual([true, true, false]);
    expect((await whoami(member.headers)).status).toBe(401);
    expect((await whoami(await session(member.id))).status).toBe(200);
  });

  it('a move its state refuses is 409 STATE.001 naming the verbs open; nothing is written', async () => {
    const member = await newMember('Refused');
    const before = await read(member.id);
    const res = await move(member.id, 'reactivate');
    expect(res.status, res.text).toBe(409);
    expect(res.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      meta: {
        state: 'active',
        verb: 'reactivate',
        allowed: ['suspend', 'deactivate'],
        reasons: ['A user active cannot be reactivated.'],
      },
    });
    expect((await read(member.id)).body.data).toEqual(before.body.data);
  });
});

describe('PATCH of status: the documented alias of the moves', () => {
  it('a status no move reaches from here is 409 STATE.001 at /data/attributes/status', async () => {
    const member = await newMember('Aliased');
    expect((await patch(member.id, { attributes: { status: 'deactivated' } })).status).toBe(200);
    const res = await patch(member.id, { attributes: { status: 'suspended' } });
    expect(res.status, res.text).toBe(409);
    expect(res.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      source: { pointer: '/data/attributes/status' },
      meta: { state: 'deactivated', verb: 'suspend', allowed: ['reactivate'] },
    });
  });

  it('status, profile and job role in one PATCH: one transaction, one user.suspended event carrying them all', async () => {
    const member = await newMember('Together');
    const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/people/job-roles`, {
      headers: admin,
      body: { data: { type: 'job-roles', attributes: { name: 'Together role', code: 'TOGETHER' } } },
    });
    const roleId = role.body.data.id as string;
    const res = await patch(member.id, {
      attributes: { status: 'suspended', profile: { work: { occupation: 'Banksman' } } },
      relationships: { job_role: { data: { type: 'job-roles', id: roleId } } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes.status).toBe('suspended');
    expect(res.body.data.attributes.profile.work.occupation).toBe('Banksman');
    expect(res.body.data.relationships.job_role.data).toEqual({ type: 'job-roles', id: roleId });
    expect((await whoami(member.headers)).status).toBe(401);
    const event = await latestEvent(tenant.org.id, 'user.suspended', member.id);
    expect(event.data).toMatchObject({
      attributes: { status: 'suspended', profile: { work: { occupation: 'Banksman' } } },
      transition: { verb: 'suspend', from: 'active', to: 'suspended' },
    });
    const held = await api.request('GET', `/v3/job-roles/${roleId}`, { headers: admin });
    expect(held.body.data.meta.holders).toBe(1);
  });

  it('a status change with a job role that does not exist is 400 at the relationship; the user stays active, sessions too', async () => {
    const member = await newMember('Halfway');
    const res = await patch(member.id, {
      attributes: { status: 'deactivated' },
      relationships: {
        job_role: { data: { type: 'job-roles', id: '01900000-0000-7000-8000-000000000000' } },
      },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe('/data/relationships/job_role/data');
    expect(
      (await api.request('GET', `/v3/users/${member.id}`, { headers: admin })).body.data.attributes.status,
    ).toBe('active');
    expect((await whoami(member.headers)).status).toBe(200);
  });
});

describe('job roles held (a user holds at most one)', () => {
  const createRole = async (code: string) =>
    (
      await api.request('POST', `/v3/orgs/${tenant.org.id}/people/job-roles`, {
        headers: admin,
        body: { data: { type: 'job-roles', attributes: { name: `Role ${code}`, code } } },
      })
    ).body.data.id as string;
  const roleOf = (id: string) => api.request('GET', `/v3/job-roles/${id}`, { headers: admin });

  it('deleting a job role anyone holds is 409 naming how many; once nobody does, it goes', async () => {
    const [a, b] = [await newMember('HolderA'), await newMember('HolderB')];
    const [first, second] = [await createRole('OPS1'), await createRole('OPS2')];
    const give = (user: string, role: string | null) =>
      patch(user, { relationships: { job_role: { data: role && { type: 'job-roles', id: role } } } });
    expect((await give(a.id, first)).status).toBe(200);
    expect((await give(b.id, first)).status).toBe(200);
    expect((await roleOf(first)).body.data.meta.holders).toBe(2);
    const refused = await api.request('DELETE', `/v3/job-roles/${first}`, { headers: admin });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.errors[0].detail).toMatch(/^2 users hold this job role/);
    // Moving to another role and to none moves the counts.
    expect((await give(a.id, second)).status).toBe(200);
    expect((await give(b.id, null)).status).toBe(200);
    expect((await roleOf(first)).body.data.meta.holders).toBe(0);
    expect((await roleOf(second)).body.data.meta.holders).toBe(1);
    expect((await api.request('DELETE', `/v3/job-roles/${first}`, { headers: admin })).status).toBe(204);
  });

  it('a job role of another organisation, or none at all, is 400 at the relationship; nothing changes', async () => {
    const member = await newMember('Nowhere');
    const foreign = await api.request('POST', `/v3/orgs/${other.org.id}/people/job-roles`, {
      token: outsider,
      body: { data: { type: 'job-roles', attributes: { name: 'Foreign', code: 'FOR' } } },
    });
    for (const id of [foreign.body.data.id, '01900000-0000-7000-8000-000000000000']) {
      const res = await patch(member.id, {
        relationships: { job_role: { data: { type: 'job-roles', id } } },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors[0].source.pointer).toBe('/data/relationships/job_role/data');
    }
    expect(
      (await api.request('GET', `/v3/users/${member.id}`, { headers: admin })).body.data.relationships
        .job_role.data,
    ).toBeNull();
    expect((await api.get(`/v3/job-roles/${foreign.body.data.id}`, outsider)).body.data.meta.holders).toBe(0);
  });
});
