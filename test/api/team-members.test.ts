/**
 * Issue 41, item 4: teams that can change. JSON:API's to-many relationship endpoints for a team's members
 * (POST adds, DELETE removes, PATCH replaces), a lead as member meta, PATCH and DELETE of a team; the
 * team's grants move with membership in the same transaction, and nobody hands over through a team more
 * than they hold.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSession } from '#shared/auth/sessions';
import { getPrincipal, heldGrantsOf } from '#shared/data/principals';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: string;

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Team Members Org', 5), newTenant('Team Members Other', 1)]);
  admin = await api.token(tenant.admin);
});
afterAll(() => api.close());

const org = () => `/v3/orgs/${tenant.org.id}`;
const person = (i: number) => tenant.people[i]?.id ?? '';
const users = (...ids: string[]) => ids.map((id) => ({ type: 'users', id }));
const membersPath = (team: string) => `${org()}/people/teams/${team}/relationships/members`;

const created = async (path: string, data: object) => {
  const res = await api.request('POST', path, { token: admin, body: { data } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const team = (name: string, members: string[] = []) =>
  created(`${org()}/people/teams`, {
    type: 'teams',
    attributes: { name },
    relationships: { members: { data: users(...members) } },
  });
const grantTo = (grantee: { team: string } | { user: string }, role: string) => {
  const [name, id] = Object.entries(grantee)[0] ?? [];
  return created(`${org()}/iam/grants`, {
    type: 'grants',
    relationships: {
      role: { data: { type: 'roles', id: role } },
      [name ?? '']: { data: { type: `${name}s`, id } },
    },
  });
};
const customRole = (name: string, permissions: string[]) =>
  created(`${org()}/iam/roles`, { type: 'roles', attributes: { name, permissions } });
const session = async (userId: string) => ({ 'x-session-token': (await startSession(userId)).token });
const change = (
  method: 'POST' | 'DELETE' | 'PATCH',
  teamId: string,
  data: object[],
  auth: { token: string } | { headers: Record<string, string> } = { token: admin },
) => api.request(method, membersPath(teamId), { ...auth, body: { data } });
const grantsShown = async (userId: string) =>
  (await api.get(`/v3/users/${userId}`, admin)).body.data.meta.grants as string[];

describe('the members relationship: POST adds, DELETE removes, PATCH replaces (JSON:API to-many updates)', () => {
  it('each answers 200 with the whole linkage; a user already a member is not added twice', async () => {
    const crew = await team('Linkage crew', [person(0)]);
    const added = await change('POST', crew, users(person(1), person(0)));
    expect(added.status, added.text).toBe(200);
    expect(added.body.data).toEqual(users(person(0), person(1)));
    expect(added.body.links.self).toBe(`${api.url}${membersPath(crew)}`);

    const removed = await change('DELETE', crew, users(person(0), person(4)));
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.data).toEqual(users(person(1)));

    const replaced = await change('PATCH', crew, users(person(2), person(3)));
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.data).toEqual(users(person(2), person(3)));
    const read = await api.get(membersPath(crew), admin);
    expect(read.body.data).toEqual(users(person(2), person(3)));
    // The other side moves with it: users' teams and their principals' team lists (CDM reads them).
    const [gone, came] = await Promise.all([
      api.get(`/v3/users/${person(1)}`, admin),
      getPrincipal(person(2)),
    ]);
    expect(gone.body.data.relationships.teams.data).not.toContainEqual({ type: 'teams', id: crew });
    expect(came?.teams[tenant.org.id]).toContain(crew);
    expect((await getPrincipal(person(1)))?.teams[tenant.org.id] ?? []).not.toContain(crew);
  });

  it('a team has at most one lead, a member, marked by meta.lead on its identifier and as relationships.lead', async () => {
    const crew = await team('Lead crew', [person(0), person(1)]);
    const led = await change('PATCH', crew, [
      { type: 'users', id: person(0) },
      { type: 'users', id: person(1), meta: { lead: true } },
    ]);
    expect(led.status, led.text).toBe(200);
    expect(led.body.data).toEqual([
      { type: 'users', id: person(0) },
      { type: 'users', id: person(1), meta: { lead: true } },
    ]);
    const got = await api.get(`${org()}/people/teams/${crew}`, admin);
    expect(got.body.data.relationships.lead.data).toEqual({ type: 'users', id: person(1) });

    const two = await change('POST', crew, [
      { type: 'users', id: person(2), meta: { lead: true } },
      { type: 'users', id: person(3), meta: { lead: true } },
    ]);
    expect(two.status, two.text).toBe(400);
    expect(two.body.errors[0].source).toEqual({ pointer: '/data/1/meta/lead' });

    // The lead removed leaves the team without one.
    await change('DELETE', crew, users(person(1)));
    expect(
      (await api.get(`${org()}/people/teams/${crew}`, admin)).body.data.relationships.lead.data,
    ).toBeNull();
  });

  it('a user of another organisation, or of none, is 400 at its identifier, and nothing is written', async () => {
    const crew = await team('Foreign crew', [person(0)]);
    for (const stranger of [other.people[0]?.id ?? '', '0190a3c2-0000-7000-8000-000000000000']) {
      const res = await change('POST', crew, users(person(1), stranger));
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors[0].source).toEqual({ pointer: '/data/1' });
    }
    expect((await api.get(membersPath(crew), admin)).body.data).toEqual(users(person(0)));
    expect((await getPrincipal(person(1)))?.teams[tenant.org.id] ?? []).not.toContain(crew);
  });

  it('a team of another organisation is 404, as any record outside the caller’s scope', async () => {
    const otherAdmin = await api.token(other.admin);
    const theirs = await api.request('POST', `/v3/orgs/${other.org.id}/people/teams`, {
      token: otherAdmin,
      body: { data: { type: 'teams', attributes: { name: 'Theirs' } } },
    });
    const res = await api.request(
      'POST',
      `${org()}/people/teams/${theirs.body.data.id}/relationships/members`,
      {
        token: admin,
        body: { data: users(person(0)) },
      },
    );
    expect(res.status, res.text).toBe(404);
  });
});

describe('grants held through a team move with membership, in the same transaction', () => {
  it('a member added can at once do what the team’s grant allows; removed, at once no longer', async () => {
    const crew = await team('Viewing crew');
    await grantTo({ team: crew }, 'viewer');
    const headers = await session(person(4));
    const list = () => api.request('GET', `${org()}/people/teams`, { headers });
    expect((await list()).status).toBe(403);

    expect((await change('POST', crew, users(person(4)))).status).toBe(200);
    expect((await list()).status).toBe(200);
    expect(await grantsShown(person(4))).toEqual(['viewer']);

    expect((await change('DELETE', crew, users(person(4)))).status).toBe(200);
    expect((await list()).status).toBe(403);
    expect(await grantsShown(person(4))).toEqual([]);
    expect((await heldGrantsOf(person(4), true)).filter((g) => g.team === crew)).toEqual([]);
  });

  it('adding members to a team whose grants exceed the caller’s own is 403 naming them, and changes nothing', async () => {
    // The caller may manage teams, and holds nothing else.
    const manager = await customRole('Team manager', ['teams:view', 'teams:manage']);
    await grantTo({ user: person(3) }, manager);
    const headers = await session(person(3));
    const strong = await team('Admin crew');
    await grantTo({ team: strong }, 'admin');

    const other = await change('POST', strong, users(person(2)), { headers });
    expect(other.status, other.text).toBe(403);
    expect(other.body.errors[0].detail).toMatch(/users:manage/);
    // Nobody adds themselves to a team to gain grants they do not hold: not by PATCH either.
    const self = await change('PATCH', strong, users(person(3)), { headers });
    expect(self.status, self.text).toBe(403);
    expect((await api.get(membersPath(strong), admin)).body.data).toEqual([]);
    expect(await grantsShown(person(2))).not.toContain('admin');

    // A team whose grants are within what the caller holds takes members from them.
    const modest = await team('Modest crew');
    await grantTo({ team: modest }, manager);
    const ok = await change('POST', modest, users(person(2)), { headers });
    expect(ok.status, ok.text).toBe(200);
    // Removing takes nothing beyond the caller: allowed on the strong team too.
    await change('POST', strong, users(person(1)));
    expect((await change('DELETE', strong, users(person(1)), { headers })).status).toBe(200);
  });
});

describe('PATCH and DELETE of a team', () => {
  it('PATCH changes name and description, honours If-Match (412 when stale), and refuses members (400)', async () => {
    const crew = await team('Renamed crew');
    const path = `${org()}/people/teams/${crew}`;
    const read = await api.get(path, admin);
    const etag = read.headers.get('etag') ?? '';
    const body = (name: string) => ({ data: { type: 'teams', id: crew, attributes: { name } } });
    const ok = await api.request('PATCH', path, {
      token: admin,
      body: body('Night crew'),
      headers: { 'if-match': etag },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.attributes.name).toBe('Night crew');
    const stale = await api.request('PATCH', path, {
      token: admin,
      body: body('Day crew'),
      headers: { 'if-match': etag },
    });
    expect(stale.status, stale.text).toBe(412);
    const members = await api.request('PATCH', path, {
      token: admin,
      body: { data: { type: 'teams', id: crew, relationships: { members: { data: users(person(0)) } } } },
    });
    expect(members.status, members.text).toBe(400);
  });

  it('DELETE is 409 while the team has members or holds grants, and 204 once it has neither', async () => {
    const crew = await team('Doomed crew', [person(0)]);
    const path = `${org()}/people/teams/${crew}`;
    const withMember = await api.request('DELETE', path, { token: admin });
    expect(withMember.status, withMember.text).toBe(409);
    expect(withMember.body.errors[0]).toMatchObject({
      code: 'CONFLICT.001',
      detail: expect.stringMatching(/1 member/),
    });
    await change('DELETE', crew, users(person(0)));
    const grant = await grantTo({ team: crew }, 'viewer');
    const withGrant = await api.request('DELETE', path, { token: admin });
    expect(withGrant.status, withGrant.text).toBe(409);
    expect(withGrant.body.errors[0].detail).toMatch(/1 grant/);
    expect((await api.request('DELETE', `${org()}/iam/grants/${grant}`, { token: admin })).status).toBe(204);
    const stale = await api.request('DELETE', path, { token: admin, headers: { 'if-match': '"stale"' } });
    expect(stale.status, stale.text).toBe(412);
    expect((await api.request('DELETE', path, { token: admin })).status).toBe(204);
    expect((await api.get(path, admin)).status).toBe(404);
  });
});

describe('events: team.member-added and team.member-removed name the team and the users', () => {
  it('each membership change is one event carrying the team as it became and the users it moved', async () => {
    const crew = await team('Evented crew');
    await change('POST', crew, users(person(0), person(1)));
    await change('DELETE', crew, users(person(1)));
    await change('PATCH', crew, users(person(1)));
    const events = await vi.waitFor(
      async () => {
        const res = await api.get(`${org()}/events?filter[subject_id]=${crew}`, admin);
        expect(res.body.data).toHaveLength(4);
        return res.body.data as { attributes: { name: string; data: { meta: Record<string, unknown> } } }[];
      },
      { timeout: 10_000, interval: 300 },
    );
    expect(events.map((e) => e.attributes.name)).toEqual([
      'team.created',
      'team.member-added',
      'team.member-removed',
      'team.members-replaced',
    ]);
    expect(events[1]?.attributes.data.meta).toMatchObject({
      members_added: users(person(0), person(1)),
      members_removed: [],
    });
    expect(events[3]?.attributes.data.meta).toMatchObject({
      members_added: users(person(1)),
      members_removed: users(person(0)),
    });
  });
});
