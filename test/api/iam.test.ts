import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('IAM Org', 1);
  admin = await api.token(tenant.admin);
});
afterAll(() => api.close());

const org = () => `/v3/orgs/${tenant.org.id}`;
const post = (path: string, body: object, token = admin) => api.request('POST', path, { token, body });
const patch = (path: string, body: object, token = admin) => api.request('PATCH', path, { token, body });
const del = (path: string, token = admin) => api.request('DELETE', path, { token });
const exchange = (clientId: string, clientSecret: string) =>
  api.request('POST', '/oauth2/token', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }).toString(),
  });

/** The spec's four steps, through the API: account, key, token, call. */
const newMachineClient = async (role = 'viewer') => {
  const account = await post(`${org()}/iam/service-accounts`, {
    data: {
      type: 'service-accounts',
      attributes: { name: 'Telemetry uploader', description: 'Uploads depot readings' },
    },
  });
  expect(account.status, account.text).toBe(201);
  const accountPath = `${org()}/iam/service-accounts/${account.body.data.id}`;
  const key = await post(`${accountPath}/keys`, {});
  expect(key.status, key.text).toBe(201);
  const grant = await post(`${org()}/iam/grants`, {
    data: {
      type: 'grants',
      relationships: {
        role: { data: { type: 'roles', id: role } },
        service_account: { data: { type: 'service-accounts', id: account.body.data.id } },
      },
    },
  });
  expect(grant.status, grant.text).toBe(201);
  const { client_id, client_secret } = key.body.data.attributes;
  const token = await exchange(client_id, client_secret);
  expect(token.status, token.text).toBe(200);
  return {
    accountPath,
    account: account.body.data,
    key: key.body.data,
    grant: grant.body.data,
    token: token.body.access_token as string,
  };
};

describe('machine access, the spec’s four steps through the API', () => {
  it('creates an account and a key, grants a role, exchanges the key for a token and calls the API', async () => {
    const client = await newMachineClient();
    expect(client.account).toMatchObject({
      type: 'service-accounts',
      attributes: {
        name: 'Telemetry uploader',
        description: 'Uploads depot readings',
        enabled: true,
        keys: [],
      },
      meta: { created_at: expect.any(String), updated_at: expect.any(String) },
      relationships: {
        organisations: { data: [{ type: 'organisations', id: tenant.org.id }] },
        groups: { data: [] },
      },
    });
    expect(client.account.attributes.email).toMatch(/@/);
    expect(client.key.attributes).toMatchObject({ client_id: client.key.id, enabled: true });
    expect(client.key.attributes.client_secret.length).toBeGreaterThanOrEqual(40);
    const teams = await api.get(`${org()}/people/teams`, client.token);
    expect(teams.status).toBe(200);
  });

  it('later reads show the key masked, never its secret', async () => {
    const client = await newMachineClient();
    const secret = client.key.attributes.client_secret as string;
    const got = await api.get(client.accountPath, admin);
    expect(got.status).toBe(200);
    expect(got.text).not.toContain(secret);
    expect(got.body.data.attributes.keys).toEqual([
      {
        id: client.key.id,
        client_secret: `************${secret.slice(-4)}`,
        enabled: true,
        created_at: expect.any(String),
      },
    ]);
    const keys = await api.get(`${client.accountPath}/keys`, admin);
    expect(keys.text).not.toContain(secret);
  });

  it('a disabled key gives 401 AUTH.001 on the next call, and works again once enabled', async () => {
    const client = await newMachineClient();
    const keyPath = `${client.accountPath}/keys/${client.key.id}`;
    const body = (enabled: boolean) => ({
      data: { type: 'service-account-keys', id: client.key.id, attributes: { enabled } },
    });
    expect((await patch(keyPath, body(false))).status).toBe(200);
    const refused = await api.get(`${org()}/people/teams`, client.token);
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].code).toBe('AUTH.001');
    expect((await patch(keyPath, body(true))).status).toBe(200);
    expect((await api.get(`${org()}/people/teams`, client.token)).status).toBe(200);
  });

  it('a deleted key’s tokens and secret stop working', async () => {
    const client = await newMachineClient();
    expect((await del(`${client.accountPath}/keys/${client.key.id}`)).status).toBe(204);
    expect((await api.get(`${org()}/people/teams`, client.token)).status).toBe(401);
    expect((await exchange(client.key.id, client.key.attributes.client_secret)).body.error).toBe(
      'invalid_client',
    );
  });

  it('a disabled, then deleted, service account gives 401, and its grants go with it', async () => {
    const client = await newMachineClient();
    const disable = await patch(client.accountPath, {
      data: { type: 'service-accounts', id: client.account.id, attributes: { enabled: false } },
    });
    expect(disable.status, disable.text).toBe(200);
    expect(disable.body.data.attributes.enabled).toBe(false);
    expect((await api.get(`${org()}/people/teams`, client.token)).status).toBe(401);
    expect((await del(client.accountPath)).status).toBe(204);
    expect((await api.get(client.accountPath, admin)).status).toBe(404);
    expect((await api.get(`${org()}/iam/grants/${client.grant.id}`, admin)).status).toBe(404);
  });

  it('a revoked grant stops working (grant cache disabled in tests)', async () => {
    const client = await newMachineClient();
    expect((await del(`${org()}/iam/grants/${client.grant.id}`)).status).toBe(204);
    const res = await api.get(`${org()}/people/teams`, client.token);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('AUTH.002');
  });

  it('a viewer cannot create accounts: 403 AUTH.002', async () => {
    const client = await newMachineClient('viewer');
    const res = await post(
      `${org()}/iam/service-accounts`,
      { data: { type: 'service-accounts', attributes: { name: 'x' } } },
      client.token,
    );
    expect(res.status).toBe(403);
  });
});

describe('service account validation', () => {
  it('unknown attributes, a mismatched id and a missing name are 400 with pointers; nothing is written', async () => {
    const before = await api.get(`${org()}/iam/service-accounts`, admin);
    const bad = await post(`${org()}/iam/service-accounts`, {
      data: { type: 'service-accounts', attributes: { description: 'no name', keys: [] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
      '/data/attributes/keys',
      '/data/attributes/name',
    ]);
    const client = await newMachineClient();
    const mismatch = await patch(client.accountPath, {
      data: { type: 'service-accounts', id: tenant.org.id, attributes: { name: 'x' } },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors[0].source).toEqual({ pointer: '/data/id' });
    const after = await api.get(`${org()}/iam/service-accounts`, admin);
    expect(after.body.meta.pagination.counts.resources).toBe(
      before.body.meta.pagination.counts.resources + 1,
    );
  });

  it('an unknown account is 404', async () => {
    const res = await api.get(`${org()}/iam/service-accounts/${tenant.people[0]?.id}`, admin);
    expect(res.status).toBe(404);
  });
});

describe('grants', () => {
  it('a grant to a user who is not in the organisation is 400 at the pointer, and nothing is written', async () => {
    const other = await newTenant('Grant Other', 1);
    const res = await post(`${org()}/iam/grants`, {
      data: {
        type: 'grants',
        relationships: {
          role: { data: { type: 'roles', id: 'viewer' } },
          user: { data: { type: 'users', id: other.people[0]?.id } },
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/relationships/user/data/id' });
    const list = await api.get(`${org()}/iam/grants?filter[user]=${other.people[0]?.id}`, admin);
    expect(list.body.data).toEqual([]);
  });

  describe('grants name only principals, roles and role groups of the granting organisation (issue 15, finding 1)', () => {
    /** Organisation B, with its admin, a team, a custom role and a role group of its own. */
    const foreignOrganisation = async () => {
      const b = await newTenant('Grant Foreign B', 1);
      const bAdmin = await api.token(b.admin);
      const bPath = `/v3/orgs/${b.org.id}`;
      const team = await api.request('POST', `${bPath}/people/teams`, {
        token: bAdmin,
        body: { data: { type: 'teams', attributes: { name: 'B crew' } } },
      });
      const role = await api.request('POST', `${bPath}/iam/roles`, {
        token: bAdmin,
        body: { data: { type: 'roles', attributes: { name: 'B reader', permissions: ['teams:view'] } } },
      });
      const group = await api.request('POST', `${bPath}/iam/role-groups`, {
        token: bAdmin,
        body: { data: { type: 'role-groups', attributes: { name: 'B group' } } },
      });
      for (const made of [team, role, group]) expect(made.status, made.text).toBe(201);
      return { b, team: team.body.data.id, role: role.body.data.id, group: group.body.data.id };
    };
    const grantIn = (orgId: string, token: string, relationships: object) =>
      api.request('POST', `/v3/orgs/${orgId}/iam/grants`, {
        token,
        body: { data: { type: 'grants', relationships } },
      });
    /** What a client can compare between two refusals: everything but the error's own id. */
    const refusal = (res: { status: number; body: { errors?: { id?: string }[] } }) => ({
      status: res.status,
      errors: (res.body.errors ?? []).map(({ id: _id, ...rest }) => rest),
    });
    const viewer = { role: { data: { type: 'roles', id: 'viewer' } } };

    it('B’s admin granting a role to A’s service account is refused exactly like a random id; A still sees only A; nothing is written', async () => {
      const { b } = await foreignOrganisation();
      const bAdmin = await api.token(b.admin);
      const account = (id: string) => ({
        ...viewer,
        service_account: { data: { type: 'service-accounts', id } },
      });
      const foreign = await grantIn(b.org.id, bAdmin, account(tenant.admin.principalId));
      const random = await grantIn(b.org.id, bAdmin, account(crypto.randomUUID()));
      expect(foreign.status, foreign.text).toBe(400);
      expect(refusal(foreign)).toEqual(refusal(random));
      expect(foreign.body.errors[0].source).toEqual({
        pointer: '/data/relationships/service_account/data/id',
      });
      const seen = await api.get('/v3/orgs', admin);
      expect(seen.body.data.map((o: { id: string }) => o.id)).toEqual([tenant.org.id]);
      const inB = await api.get(
        `/v3/orgs/${b.org.id}/iam/grants?filter[service_account]=${tenant.admin.principalId}`,
        bAdmin,
      );
      expect(inB.body.data).toEqual([]);
      expect((await api.get(`/v3/orgs/${b.org.id}/people/teams`, admin)).status).toBe(404);
    });

    it('A’s users and teams are refused as grantees in B exactly like random ids', async () => {
      const { b } = await foreignOrganisation();
      const bAdmin = await api.token(b.admin);
      const aTeam = await post(`${org()}/people/teams`, {
        data: { type: 'teams', attributes: { name: 'A crew' } },
      });
      expect(aTeam.status, aTeam.text).toBe(201);
      for (const [name, type, id] of [
        ['user', 'users', tenant.people[0]?.id ?? ''],
        ['team', 'teams', aTeam.body.data.id as string],
      ] as const) {
        const foreign = await grantIn(b.org.id, bAdmin, { ...viewer, [name]: { data: { type, id } } });
        const random = await grantIn(b.org.id, bAdmin, {
          ...viewer,
          [name]: { data: { type, id: crypto.randomUUID() } },
        });
        expect(foreign.status, `${name}: ${foreign.text}`).toBe(400);
        expect(refusal(foreign), name).toEqual(refusal(random));
      }
    });

    it('B’s custom roles and role groups cannot be given in A, and are refused like random ids', async () => {
      const foreignThings = await foreignOrganisation();
      const grantee = { user: { data: { type: 'users', id: tenant.people[0]?.id } } };
      for (const [name, type, id] of [
        ['role', 'roles', foreignThings.role],
        ['role_group', 'role-groups', foreignThings.group],
      ] as const) {
        const foreign = await grantIn(tenant.org.id, admin, { ...grantee, [name]: { data: { type, id } } });
        const random = await grantIn(tenant.org.id, admin, {
          ...grantee,
          [name]: { data: { type, id: crypto.randomUUID() } },
        });
        expect(foreign.status, `${name}: ${foreign.text}`).toBe(400);
        expect(refusal(foreign), name).toEqual(refusal(random));
      }
      const held = await api.get(`${org()}/iam/grants?filter[user]=${tenant.people[0]?.id}`, admin);
      expect(
        held.body.data.filter(
          (g: { relationships: { role: { data: { id: string } | null } } }) =>
            g.relationships.role.data?.id === foreignThings.role,
        ),
      ).toEqual([]);
    });

    it('changing a grant to B’s role or role group is refused like a random id, and the grant is unchanged', async () => {
      const foreignThings = await foreignOrganisation();
      const client = await newMachineClient('viewer');
      const path = `${org()}/iam/grants/${client.grant.id}`;
      for (const [name, type, id] of [
        ['role', 'roles', foreignThings.role],
        ['role_group', 'role-groups', foreignThings.group],
      ] as const) {
        const change = (to: string) =>
          patch(path, {
            data: {
              type: 'grants',
              id: client.grant.id,
              relationships: { [name]: { data: { type, id: to } } },
            },
          });
        const foreign = await change(id);
        const random = await change(crypto.randomUUID());
        expect(foreign.status, `${name}: ${foreign.text}`).toBe(400);
        expect(refusal(foreign), name).toEqual(refusal(random));
      }
      const after = await api.get(path, admin);
      expect(after.body.data.relationships.role.data).toEqual({ type: 'roles', id: 'viewer' });
    });
  });

  it('naming both a role and a role group, or no grantee, is 400', async () => {
    const res = await post(`${org()}/iam/grants`, {
      data: {
        type: 'grants',
        relationships: {
          role: { data: { type: 'roles', id: 'viewer' } },
          role_group: { data: { type: 'role-groups', id: tenant.org.id } },
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.length).toBe(2);
  });

  it('lists grants with their relationships, filterable by grantee', async () => {
    const client = await newMachineClient();
    const res = await api.get(
      `${org()}/iam/grants?filter[service_account]=${client.account.id}&include=service_account`,
      admin,
    );
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].relationships).toMatchObject({
      role: { data: { type: 'roles', id: 'viewer' } },
      service_account: { data: { type: 'service-accounts', id: client.account.id } },
      organisation: { data: { type: 'organisations', id: tenant.org.id } },
      user: { data: null },
    });
    expect(res.body.included[0]).toMatchObject({ type: 'service-accounts', id: client.account.id });
  });
});

describe('whoami, roles and the permission catalogue', () => {
  it('GET /v3/whoami names the caller, its organisations and its effective permissions', async () => {
    const client = await newMachineClient('viewer');
    const res = await api.get('/v3/whoami', client.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'whoami',
      id: client.account.id,
      attributes: { kind: 'service-account', name: 'Telemetry uploader' },
      relationships: { organisations: { data: [{ type: 'organisations', id: tenant.org.id }] } },
    });
    const [membership] = res.body.data.meta.organisations;
    expect(membership.permissions).toContain('teams:view');
    expect(membership.permissions).not.toContain('teams:manage');
  });

  it('every organisation has the built-in administrator and viewer roles', async () => {
    // A new organisation: this file's own gets custom roles from other tests.
    const fresh = await newTenant('IAM Fresh', 0);
    const res = await api.get(`/v3/orgs/${fresh.org.id}/iam/roles`, await api.token(fresh.admin));
    expect(res.body.data.map((r: { id: string }) => r.id).sort()).toEqual(['admin', 'viewer']);
    const viewer = res.body.data.find((r: { id: string }) => r.id === 'viewer');
    expect(viewer.meta.built_in).toBe(true);
    // Read-only, but for oneself: one's own profile (users:self, which a viewer needs to keep theirs up
    // to date), signing oneself in and out at a site (site-attendances:self, issue 41 item 7) and the
    // actions one is party to (actions:self, issue 45).
    const ownSelf = ['users:self', 'site-attendances:self', 'actions:self'];
    expect(
      viewer.attributes.permissions.every((p: string) => p.endsWith(':view') || ownSelf.includes(p)),
    ).toBe(true);
    expect(viewer.attributes.permissions).toEqual(expect.arrayContaining(ownSelf));
  });

  it('GET /v3/iam/permissions lists the catalogue read-only', async () => {
    const res = await api.get('/v3/iam/permissions?limit=100', admin);
    expect(res.status).toBe(200);
    const names = res.body.data.map((p: { id: string }) => p.id);
    expect(names).toContain('service-accounts:manage');
    expect(res.body.data[0].attributes.description).toEqual(expect.any(String));
    expect((await api.request('POST', '/v3/iam/permissions', { token: admin, body: {} })).status).toBe(405);
  });
});

describe('custom roles and role groups', () => {
  const role = (permissions: string[], name = 'Team reader') =>
    post(`${org()}/iam/roles`, { data: { type: 'roles', attributes: { name, permissions } } });
  const grantTo = (accountId: string, relationships: object) =>
    post(`${org()}/iam/grants`, {
      data: {
        type: 'grants',
        relationships: {
          ...relationships,
          service_account: { data: { type: 'service-accounts', id: accountId } },
        },
      },
    });
  /** An account whose only grant is the one the test gives it. */
  const bareClient = async () => {
    const client = await newMachineClient();
    await del(`${org()}/iam/grants/${client.grant.id}`);
    return client;
  };

  it('a custom role grants exactly its permissions', async () => {
    const created = await role(['teams:view']);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({
      type: 'roles',
      attributes: { permissions: ['teams:view'] },
      meta: { built_in: false },
    });
    const client = await bareClient();
    expect(
      (await grantTo(client.account.id, { role: { data: { type: 'roles', id: created.body.data.id } } }))
        .status,
    ).toBe(201);
    expect((await api.get(`${org()}/people/teams`, client.token)).status).toBe(200);
    expect((await api.get(`${org()}/iam/service-accounts`, client.token)).status).toBe(403);
  });

  it('a permission outside the catalogue is 400 at its pointer', async () => {
    const res = await role(['teams:view', 'teams:destroy']);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/permissions/1' });
  });

  it('a role group grants the union of its roles; an unknown role in it is 400', async () => {
    const custom = await role(['service-accounts:view'], 'Account reader');
    const group = await post(`${org()}/iam/role-groups`, {
      data: {
        type: 'role-groups',
        attributes: { name: 'Auditors' },
        relationships: {
          roles: {
            data: [
              { type: 'roles', id: custom.body.data.id },
              { type: 'roles', id: 'viewer' },
            ],
          },
        },
      },
    });
    expect(group.status, group.text).toBe(201);
    const client = await bareClient();
    await grantTo(client.account.id, {
      role_group: { data: { type: 'role-groups', id: group.body.data.id } },
    });
    const me = await api.get('/v3/whoami', client.token);
    expect(me.body.data.meta.organisations[0].permissions).toEqual(
      expect.arrayContaining(['service-accounts:view', 'teams:view']),
    );
    const bad = await post(`${org()}/iam/role-groups`, {
      data: {
        type: 'role-groups',
        attributes: { name: 'Broken' },
        relationships: { roles: { data: [{ type: 'roles', id: tenant.org.id }] } },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source).toEqual({ pointer: '/data/relationships/roles/data/0' });
  });

  it('changing a role’s permissions changes its holders’ access', async () => {
    const created = await role(['teams:view']);
    const client = await bareClient();
    await grantTo(client.account.id, { role: { data: { type: 'roles', id: created.body.data.id } } });
    const changed = await patch(`${org()}/iam/roles/${created.body.data.id}`, {
      data: { type: 'roles', id: created.body.data.id, attributes: { permissions: ['organisations:view'] } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await api.get(`${org()}/people/teams`, client.token)).status).toBe(403);
  });

  it('a role still granted cannot be deleted (409); once revoked it can (204)', async () => {
    const created = await role(['teams:view']);
    const client = await bareClient();
    const grant = await grantTo(client.account.id, {
      role: { data: { type: 'roles', id: created.body.data.id } },
    });
    const refused = await del(`${org()}/iam/roles/${created.body.data.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('CONFLICT.001');
    await del(`${org()}/iam/grants/${grant.body.data.id}`);
    expect((await del(`${org()}/iam/roles/${created.body.data.id}`)).status).toBe(204);
    expect((await api.get(`${org()}/iam/roles/${created.body.data.id}`, admin)).status).toBe(404);
  });

  it('built-in roles can be read by their string id but not changed or deleted', async () => {
    const got = await api.get(`${org()}/iam/roles/admin`, admin);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id: 'admin', meta: { built_in: true } });
    expect((await del(`${org()}/iam/roles/admin`)).status).toBe(409);
    const res = await patch(`${org()}/iam/roles/viewer`, {
      data: { type: 'roles', id: 'viewer', attributes: { name: 'x' } },
    });
    expect(res.status).toBe(409);
  });

  it('role ids that name Object.prototype members (the role-id pattern admits them) are roles that do not exist: 404', async () => {
    for (const id of ['constructor', 'hasownproperty', 'valueof', 'tostring']) {
      expect((await api.get(`${org()}/iam/roles/${id}`, admin)).status, id).toBe(404);
      expect((await del(`${org()}/iam/roles/${id}`)).status, id).toBe(404);
      const res = await patch(`${org()}/iam/roles/${id}`, {
        data: { type: 'roles', id, attributes: { name: 'x' } },
      });
      expect(res.status, id).toBe(404);
    }
  });
});

describe('changing a grant', () => {
  it('PATCH swaps the role a grant gives; the grantee’s access follows', async () => {
    const client = await newMachineClient('viewer');
    const path = `${org()}/iam/grants/${client.grant.id}`;
    expect(
      (
        await post(
          `${org()}/iam/service-accounts`,
          { data: { type: 'service-accounts', attributes: { name: 'n' } } },
          client.token,
        )
      ).status,
    ).toBe(403);
    const res = await patch(path, {
      data: {
        type: 'grants',
        id: client.grant.id,
        relationships: { role: { data: { type: 'roles', id: 'admin' } } },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.relationships.role.data).toEqual({ type: 'roles', id: 'admin' });
    expect(res.body.data.relationships.service_account.data.id).toBe(client.account.id);
    expect(
      (
        await post(
          `${org()}/iam/service-accounts`,
          { data: { type: 'service-accounts', attributes: { name: 'n' } } },
          client.token,
        )
      ).status,
    ).toBe(201);
  });

  it('a grantee cannot be changed by PATCH (400), and an unknown role group is 400', async () => {
    const client = await newMachineClient('viewer');
    const path = `${org()}/iam/grants/${client.grant.id}`;
    const regrant = await patch(path, {
      data: {
        type: 'grants',
        id: client.grant.id,
        relationships: { user: { data: { type: 'users', id: tenant.people[0]?.id } } },
      },
    });
    expect(regrant.status).toBe(400);
    const unknown = await patch(path, {
      data: {
        type: 'grants',
        id: client.grant.id,
        relationships: { role_group: { data: { type: 'role-groups', id: tenant.org.id } } },
      },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].source).toEqual({ pointer: '/data/relationships/role_group/data/id' });
  });
});
