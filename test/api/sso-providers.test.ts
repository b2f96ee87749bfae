import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceAccountClient } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents, latestEvent } from '../support/event-stream';
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

describe('PATCH and DELETE /v3/sso-providers/{sso_provider_id} (issue 41, item 6)', () => {
  const secret = `s3cret-${Math.random().toString(36).slice(2)}-confidential`;
  const path = (id: string) => `/v3/sso-providers/${id}`;
  const patch = (
    id: string,
    attributes: object,
    options: { token?: string; headers?: Record<string, string> } = {},
  ) =>
    api.request('PATCH', path(id), {
      token: options.token ?? admin,
      headers: options.headers ?? {},
      body: { data: { type: 'sso-providers', id, attributes } },
    });

  it('sso-providers:manage changes a provider: attributes, a new name (its claim moves), the default role', async () => {
    const made = await create(body(a.org.id, { name: 'To rename', client_id: 'api' }));
    const id = made.body.data.id as string;
    const res = await patch(id, { name: 'Renamed', enforce: false, allowed_domains: ['northmere.example'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes).toMatchObject({
      name: 'Renamed',
      enforce: false,
      allowed_domains: ['northmere.example'],
      has_client_secret: false,
      return_to_allow_list: [],
    });
    // The old name is free again, the new one taken.
    expect((await create(body(a.org.id, { name: 'to rename' }))).status).toBe(201);
    const taken = await patch(id, { name: 'Okta' });
    expect(taken.status).toBe(409);
    expect(taken.body.errors[0].source).toEqual({ pointer: '/data/attributes/name' });
    const role = await api.request('PATCH', path(id), {
      token: admin,
      body: {
        data: {
          type: 'sso-providers',
          id,
          relationships: {
            default_role: { data: { type: 'roles', id: '01a20000-0000-7000-8000-000000000000' } },
          },
        },
      },
    });
    expect(role.status).toBe(400);
    expect(role.body.errors[0].source).toEqual({ pointer: '/data/relationships/default_role/data/id' });
  });

  it('validates as create does: metadata, client_id, domains and return_to entries at their pointers; unknown members and provider_type are refused', async () => {
    const id = (await create(body(a.org.id, { name: 'Validated' }))).body.data.id as string;
    const res = await patch(id, {
      metadata: 'http://insecure.example/.well-known/openid-configuration',
      client_id: '',
      allowed_domains: ['not a domain'],
      return_to_allow_list: [
        'javascript:alert(1)',
        'https://app.example/?next=x',
        'https://u:p@app.example/',
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
      '/data/attributes/allowed_domains/0',
      '/data/attributes/client_id',
      '/data/attributes/metadata',
      '/data/attributes/return_to_allow_list/0',
      '/data/attributes/return_to_allow_list/1',
      '/data/attributes/return_to_allow_list/2',
    ]);
    for (const attributes of [{ provider_type: 'saml' }, { has_client_secret: true }, { colour: 'red' }])
      expect((await patch(id, attributes)).status, JSON.stringify(attributes)).toBe(400);
    expect((await api.get(path(id), admin)).body.data.attributes.name).toBe('Validated');
  });

  it('honours If-Match: a stale tag is 412 PRECONDITION.001 and changes nothing; the current one writes', async () => {
    const made = await create(body(a.org.id, { name: 'Guarded' }));
    const id = made.body.data.id as string;
    const tag = made.headers.get('etag') ?? '';
    expect((await patch(id, { enforce: false }, { headers: { 'if-match': tag } })).status).toBe(200);
    const stale = await patch(id, { name: 'Overwritten' }, { headers: { 'if-match': tag } });
    expect(stale.status).toBe(412);
    expect(stale.body.errors[0].code).toBe('PRECONDITION.001');
    const stillGuarded = await api.get(path(id), admin);
    expect(stillGuarded.body.data.attributes.name).toBe('Guarded');
    const gone = await api.request('DELETE', path(id), { token: admin, headers: { 'if-match': tag } });
    expect(gone.status).toBe(412);
    const current = stillGuarded.headers.get('etag') ?? '';
    expect(
      (await api.request('DELETE', path(id), { token: admin, headers: { 'if-match': current } })).status,
    ).toBe(204);
  });

  it('without sso-providers:manage PATCH and DELETE are 403; another organisation’s provider is 404', async () => {
    const id = (await create(body(a.org.id, { name: 'Kept' }))).body.data.id as string;
    const viewer = await api.token(a.viewer);
    expect((await patch(id, { enforce: false }, { token: viewer })).status).toBe(403);
    expect((await api.request('DELETE', path(id), { token: viewer })).status).toBe(403);
    const other = await api.token(b.admin);
    expect((await patch(id, { enforce: false }, { token: other })).status).toBe(404);
    expect((await api.request('DELETE', path(id), { token: other })).status).toBe(404);
    expect((await api.get(path(id), admin)).body.data.attributes.enforce).toBe(true);
  });

  it('DELETE removes the provider, its name and its sign-in identifier: 204, then 404 at both', async () => {
    const made = await create(body(a.org.id, { name: 'Leaving', client_id: 'api' }));
    const { id } = made.body.data;
    const identifier = made.body.data.meta.oidc_identifier as string;
    expect((await api.request('DELETE', path(id), { token: admin })).status).toBe(204);
    expect((await api.get(path(id), admin)).status).toBe(404);
    expect((await api.request('GET', `/v3/sso/${identifier}/authorize`)).status).toBe(404);
    expect((await create(body(a.org.id, { name: 'Leaving' }))).status).toBe(201);
    const event = await latestEvent(a.org.id, 'sso-provider.deleted', id);
    expect(event.subject).toEqual({ type: 'sso-providers', id });
  });

  it('a client_secret is write-only: never in an answer (create, PATCH, GET, list, replay), an event or an audit entry; has_client_secret says it is set', async () => {
    const made = await api.request('POST', '/v3/sso-providers', {
      token: admin,
      headers: { 'idempotency-key': `sso-secret-${secret}` },
      body: body(a.org.id, { name: 'Confidential', client_id: 'api', client_secret: secret }),
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id as string;
    expect(made.body.data.attributes.has_client_secret).toBe(true);
    const replay = await api.request('POST', '/v3/sso-providers', {
      token: admin,
      headers: { 'idempotency-key': `sso-secret-${secret}` },
      body: body(a.org.id, { name: 'Confidential', client_id: 'api', client_secret: secret }),
    });
    expect(replay.status).toBe(201);
    const rotated = await patch(id, { client_secret: `${secret}-2` });
    expect(rotated.body.data.attributes.has_client_secret).toBe(true);
    const answers = [
      made,
      replay,
      rotated,
      await api.get(path(id), admin),
      await api.get('/v3/sso-providers?limit=50', admin),
    ];
    await deliverEvents(a.org.id);
    const audit = await api.get(`/v3/orgs/${a.org.id}/audit-events?filter[subject_id]=${id}`, admin);
    expect(audit.body.data.length).toBe(2);
    const events = [
      await latestEvent(a.org.id, 'sso-provider.created', id),
      await latestEvent(a.org.id, 'sso-provider.updated', id),
    ];
    for (const seen of [...answers.map((r) => r.text), audit.text, JSON.stringify(events)]) {
      expect(seen).not.toContain(secret);
      expect(seen).not.toContain('"client_secret"');
      expect(seen).not.toContain('client_secret_ciphertext');
    }
    // Removed with null: the client is public again.
    const removed = await patch(id, { client_secret: null });
    expect(removed.body.data.attributes.has_client_secret).toBe(false);
  });
});
