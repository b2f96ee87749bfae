import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceAccountClient } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let a: Tenant;
let b: Tenant;
let admin: string;

beforeAll(async () => {
  api = await startTestApi();
  [a, b] = await Promise.all([newTenant('SSO A', 0), newTenant('SSO B', 0)]);
  admin = await api.token(a.admin);
});
afterAll(() => api.close());

const discovery = 'https://login.northmere.example/.well-known/openid-configuration';
const body = (orgId: string, attributes: object, defaultRole?: string) => ({
  data: {
    type: 'sso-providers',
    attributes: { name: 'Entra ID', metadata: discovery, enforce: true, ...attributes },
    relationships: {
      organisation: { data: { type: 'organisations', id: orgId } },
      ...(defaultRole && { default_role: { data: { type: 'roles', id: defaultRole } } }),
    },
  },
});
const create = (payload: object, token = admin) =>
  api.request('POST', '/v3/sso-providers', { token, body: payload });

describe('POST /v3/sso-providers', () => {
  it('creates an OIDC provider: provider_type oidc (the spec’s type; a reserved JSON:API name), meta.oidc_identifier, organisation and default_role relationships', async () => {
    const res = await create(body(a.org.id, {}, 'viewer'));
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({
      type: 'sso-providers',
      attributes: { provider_type: 'oidc', name: 'Entra ID', metadata: discovery, enforce: true },
      meta: {
        created_at: expect.any(String),
        updated_at: expect.any(String),
        oidc_identifier: expect.stringMatching(/^oidc_/),
      },
      relationships: {
        organisation: { data: { type: 'organisations', id: a.org.id } },
        default_role: { data: { type: 'roles', id: 'viewer' } },
      },
    });
  });

  it('a second provider of the same name in the organisation is 409 CONFLICT.001', async () => {
    await create(body(a.org.id, { name: 'Okta' }));
    const res = await create(body(a.org.id, { name: 'okta' }));
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({
      code: 'CONFLICT.001',
      source: { pointer: '/data/attributes/name' },
    });
  });

  it('missing or wrong fields are 400 with pointers', async () => {
    const res = await create({
      data: {
        type: 'sso-providers',
        attributes: { metadata: 'http://insecure.example/x' },
        relationships: {},
      },
    });
    expect(res.status).toBe(400);
    const pointers = res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort();
    expect(pointers).toEqual([
      '/data/attributes/metadata',
      '/data/attributes/name',
      '/data/relationships/organisation',
    ]);
    const unknownRole = await create(
      body(a.org.id, { name: 'Ping' }, '01a20000-0000-7000-8000-000000000000'),
    );
    expect(unknownRole.status).toBe(400);
    expect(unknownRole.body.errors[0].source).toEqual({
      pointer: '/data/relationships/default_role/data/id',
    });
  });

  it('another organisation in the body is 404 for a caller with no grants there; a viewer is 403', async () => {
    expect((await create(body(b.org.id, { name: 'Sneaky' }))).status).toBe(404);
    const viewer = await api.token(a.viewer);
    expect((await create(body(a.org.id, { name: 'Viewer' }), viewer)).status).toBe(403);
  });
});

describe('GET /v3/sso-providers', () => {
  it('lists only providers of organisations the caller may administer, with pagination and features', async () => {
    await create(body(b.org.id, { name: 'B provider' }), await api.token(b.admin));
    const res = await api.get('/v3/sso-providers?limit=50', admin);
    expect(res.status).toBe(200);
    expect(
      res.body.data.every(
        (p: { relationships: { organisation: { data: { id: string } } } }) =>
          p.relationships.organisation.data.id === a.org.id,
      ),
    ).toBe(true);
    expect(res.body.meta.pagination.counts.resources).toBe(res.body.data.length);
    expect(res.body.meta.features.params.include.options).toEqual(['organisation']);
    const both = await createServiceAccountClient('both admin', [
      { org_id: a.org.id, role: 'admin' },
      { org_id: b.org.id, role: 'admin' },
    ]);
    const all = await api.get('/v3/sso-providers?limit=50', await api.token(both));
    expect(all.body.data.map((p: { attributes: { name: string } }) => p.attributes.name)).toContain(
      'B provider',
    );
    expect((await api.get('/v3/sso-providers', await api.token(a.viewer))).status).toBe(403);
  });
});
