import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPrincipal } from '#shared/data/principals';
import { createTeam } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let token: string;
const names = ['Bridges', 'asset Inspection', 'Civils', 'Drainage', 'Electrical'];

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Teams Org'), newTenant('Other Org')]);
  const [first, second] = tenant.people.map((p) => p.id);
  for (const [i, name] of names.entries()) {
    await createTeam(tenant.org.id, {
      name,
      description: `${name} team`,
      memberIds: i === 0 ? [first ?? '', second ?? ''] : [],
    });
  }
  await createTeam(other.org.id, { name: 'Foreign team', description: 'not yours' });
  token = await api.token(tenant.viewer);
});
afterAll(() => api.close());

const teamsPath = (orgId: string, query = '') => `/v3/orgs/${orgId}/people/teams${query}`;

describe('GET /v3/orgs/{org_id}/people/teams', () => {
  it('lists the organisation’s teams, sorted by name by default, with links.self on each', async () => {
    const res = await api.get(teamsPath(tenant.org.id), token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(res.body.jsonapi).toEqual({ version: '1.1' });
    expect(res.body.data.map((t: { attributes: { name: string } }) => t.attributes.name)).toEqual([
      'asset Inspection',
      'Bridges',
      'Civils',
      'Drainage',
      'Electrical',
    ]);
    const [team] = res.body.data;
    expect(team).toMatchObject({
      type: 'teams',
      attributes: { name: 'asset Inspection', description: 'asset Inspection team' },
      meta: { created_at: expect.any(String), updated_at: expect.any(String) },
      relationships: {
        organisation: { data: { type: 'organisations', id: tenant.org.id } },
        members: { data: [] },
        schemas: { data: [] },
      },
      links: { self: `${api.url}/v3/orgs/${tenant.org.id}/people/teams/${team.id}` },
    });
  });

  it('include=members: members appear in included with every User field group, once each', async () => {
    const res = await api.get(teamsPath(tenant.org.id, '?include=members&sort=name&limit=2'), token);
    expect(res.status).toBe(200);
    const bridges = res.body.data.find(
      (t: { attributes: { name: string } }) => t.attributes.name === 'Bridges',
    );
    expect(bridges.relationships.members.data).toHaveLength(2);
    expect(res.body.included).toHaveLength(2);
    const [member] = res.body.included;
    expect(member.type).toBe('users');
    expect(Object.keys(member.attributes.profile).sort()).toEqual([
      'address',
      'contact',
      'personal',
      'settings',
      'work',
    ]);
    expect(member.attributes.email).toMatch(/@/);
    expect(member.relationships.teams.data).toEqual([{ type: 'teams', id: bridges.id }]);
  });

  it('limit caps data only; meta.pagination describes the page', async () => {
    const res = await api.get(teamsPath(tenant.org.id, '?limit=2&offset=2'), token);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.meta.pagination).toEqual({
      current_page: 2,
      counts: { pages: 3, resources: 5 },
      requested: { limit: 2, offset: 2 },
      offsets: { previous: 0, next: 4 },
    });
  });

  it('page[limit]/page[offset] win over limit/offset', async () => {
    const res = await api.get(
      teamsPath(tenant.org.id, '?limit=1&offset=0&page[limit]=3&page[offset]=3'),
      token,
    );
    expect(res.body.data).toHaveLength(2);
    expect(res.body.meta.pagination.requested).toEqual({ limit: 3, offset: 3 });
    expect(res.body.meta.pagination.offsets).toEqual({ previous: 0, next: null });
  });

  it('an out-of-range page is 200 with empty data', async () => {
    const res = await api.get(teamsPath(tenant.org.id, '?offset=50'), token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.pagination.counts).toEqual({ pages: 1, resources: 5 });
  });

  it('sort=-name sorts descending; only the first sort field applies', async () => {
    const res = await api.get(teamsPath(tenant.org.id, '?sort=-name,created_at'), token);
    expect(res.body.data[0].attributes.name).toBe('Electrical');
    expect(res.body.data[4].attributes.name).toBe('asset Inspection');
  });

  it('sort=created_at follows creation order', async () => {
    const res = await api.get(teamsPath(tenant.org.id, '?sort=created_at'), token);
    expect(res.body.data.map((t: { attributes: { name: string } }) => t.attributes.name)).toEqual(names);
  });

  it('filter[name] is exact equality, and counts what matched', async () => {
    const res = await api.get(teamsPath(tenant.org.id, '?filter[name]=Civils'), token);
    expect(res.body.data.map((t: { attributes: { name: string } }) => t.attributes.name)).toEqual(['Civils']);
    expect(res.body.meta.pagination.counts.resources).toBe(1);
  });

  it('meta.features lists the filter, include and sort options', async () => {
    const res = await api.get(teamsPath(tenant.org.id), token);
    expect(res.body.meta.features.params).toEqual({
      filter: {
        options: ['name', 'created_at.since', 'created_at.until', 'updated_at.since', 'updated_at.until'],
        indexed: ['name', 'created_at.since', 'created_at.until', 'updated_at.since', 'updated_at.until'],
      },
      include: { options: ['members'] },
      sort: { options: ['name', 'updated_at', 'created_at'] },
    });
  });

  it('an invalid include is 400 with source.parameter include', async () => {
    const res = await api.get(teamsPath(tenant.org.id, '?include=owner'), token);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        status: '400',
        title: 'A validation error was encountered',
        source: { parameter: 'include' },
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      }),
    ]);
  });

  it('limit < 1, offset < 0 and non-integers are 400', async () => {
    for (const query of ['?limit=0', '?offset=-1', '?limit=abc', '?page[limit]=101']) {
      const res = await api.get(teamsPath(tenant.org.id, query), token);
      expect(res.status, query).toBe(400);
    }
  });

  it('another organisation’s teams are 404, never 403 (existence is not revealed)', async () => {
    const res = await api.get(teamsPath(other.org.id), token);
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({ code: 'NOT_FOUND.001', title: 'Resource not found' });
  });

  it('a malformed org_id is 400 naming the parameter', async () => {
    const res = await api.get(teamsPath('not-a-uuid'), token);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ parameter: 'org_id' });
  });
});

describe('POST /v3/orgs/{org_id}/people/teams', () => {
  // Teams are created in an organisation of their own, so the list above always holds exactly five.
  let writer: Tenant;
  beforeAll(async () => {
    writer = await newTenant('Teams Writes');
  });
  const body = (attributes: object, relationships?: object) => ({
    data: { type: 'teams', attributes, ...(relationships && { relationships }) },
  });

  it('creates a team with members: 201, Location, and both sides of the membership', async () => {
    const admin = await api.token(writer.admin);
    const member = writer.people[1]?.id;
    const res = await api.request('POST', teamsPath(writer.org.id), {
      token: admin,
      body: body({ name: 'Tunnelling' }, { members: { data: [{ type: 'users', id: member }] } }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(res.body.data.links.self);
    expect(res.body.data).toMatchObject({
      type: 'teams',
      attributes: { name: 'Tunnelling', description: '' },
      relationships: { members: { data: [{ type: 'users', id: member }] } },
    });
    const list = await api.get(teamsPath(writer.org.id, '?filter[name]=Tunnelling&include=members'), admin);
    expect(list.body.included[0].relationships.teams.data).toContainEqual({
      type: 'teams',
      id: res.body.data.id,
    });
  });

  it('a viewer lacks teams:manage: 403 AUTH.002', async () => {
    const viewer = await api.token(writer.viewer);
    const res = await api.request('POST', teamsPath(writer.org.id), {
      token: viewer,
      body: body({ name: 'Nope' }),
    });
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toMatchObject({ code: 'AUTH.002', title: 'Forbidden' });
  });

  it('unknown attributes and relationships are 400 with a pointer to each, and nothing is written', async () => {
    const admin = await api.token(writer.admin);
    const before = await api.get(teamsPath(writer.org.id), admin);
    const res = await api.request('POST', teamsPath(writer.org.id), {
      token: admin,
      body: body({ name: 'Sneaky', owner_id: 'x' }, { owner: { data: null } }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
      '/data/attributes/owner_id',
      '/data/relationships/owner',
    ]);
    const after = await api.get(teamsPath(writer.org.id), admin);
    expect(after.body.meta.pagination.counts.resources).toBe(before.body.meta.pagination.counts.resources);
  });

  it('a member from another organisation is 400 at its pointer, and nothing is written', async () => {
    const admin = await api.token(writer.admin);
    const before = await api.get(teamsPath(writer.org.id), admin);
    const res = await api.request('POST', teamsPath(writer.org.id), {
      token: admin,
      body: body(
        { name: 'Mixed' },
        {
          members: {
            data: [
              { type: 'users', id: writer.people[0]?.id },
              { type: 'users', id: other.people[0]?.id },
            ],
          },
        },
      ),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/relationships/members/data/1' });
    const after = await api.get(teamsPath(writer.org.id, '?include=members'), admin);
    expect(after.body.meta.pagination.counts.resources).toBe(before.body.meta.pagination.counts.resources);
    const person = after.body.included?.find((u: { id: string }) => u.id === writer.people[0]?.id);
    expect(person?.relationships.teams.data.map((t: { id: string }) => t.id) ?? []).not.toContain(
      res.body.data?.id,
    );
  });

  it('a member from another organisation is refused exactly like a random id, and that user’s principal gains no team (issue 15, finding 1)', async () => {
    const admin = await api.token(tenant.admin);
    const withMember = (id: string) =>
      api.request('POST', teamsPath(tenant.org.id), {
        token: admin,
        body: body({ name: 'Probe' }, { members: { data: [{ type: 'users', id }] } }),
      });
    const foreignUser = other.people[0]?.id ?? '';
    const foreign = await withMember(foreignUser);
    const random = await withMember(crypto.randomUUID());
    const comparable = (res: { status: number; body: { errors: { id: string }[] } }) => ({
      status: res.status,
      errors: res.body.errors.map(({ id: _id, ...rest }) => rest),
    });
    expect(foreign.status).toBe(400);
    expect(comparable(foreign)).toEqual(comparable(random));
    expect((await getPrincipal(foreignUser))?.teams).toEqual({});
    const probes = await api.get(teamsPath(tenant.org.id, '?filter[name]=Probe'), admin);
    expect(probes.body.data).toEqual([]);
  });

  it('a missing name is 400 pointing at it', async () => {
    const admin = await api.token(writer.admin);
    const res = await api.request('POST', teamsPath(writer.org.id), {
      token: admin,
      body: body({ name: '  ' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/name' });
  });
});
