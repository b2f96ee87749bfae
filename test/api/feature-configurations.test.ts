import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeatureConfiguration, createServiceAccountClient } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  api = await startTestApi();
  [a, b] = await Promise.all([newTenant('Features A', 0), newTenant('Features B', 0)]);
  await createFeatureConfiguration(a.org.id, {
    name: 'Cost register',
    domain: 'costs',
    component: 'cost-rollups',
    enabled: false,
  });
  await createFeatureConfiguration(a.org.id, {
    name: 'CPP',
    domain: 'cdm',
    component: 'construction-phase-plans',
    enabled: true,
  });
  await createFeatureConfiguration(b.org.id, {
    name: 'Permits',
    domain: 'permits',
    component: 'street-works',
    enabled: true,
  });
});
afterAll(() => api.close());

describe('GET /v3/feature-configurations', () => {
  it('lists the caller’s organisations’ configurations: domain, component, enabled; meta name', async () => {
    const res = await api.get('/v3/feature-configurations', await api.token(a.viewer));
    expect(res.status).toBe(200);
    expect(res.body.data.map((f: { attributes: object }) => f.attributes)).toEqual([
      { domain: 'cdm', component: 'construction-phase-plans', enabled: true },
      { domain: 'costs', component: 'cost-rollups', enabled: false },
    ]);
    expect(res.body.data[0].meta.name).toBe('CPP');
    expect(res.body.data[0].relationships.organisation.data).toEqual({ type: 'organisations', id: a.org.id });
    expect(res.body.included).toBeUndefined();
  });

  it('include=organisation puts the organisation in included once', async () => {
    const res = await api.get('/v3/feature-configurations?include=organisation', await api.token(a.viewer));
    expect(res.body.included).toHaveLength(1);
    expect(res.body.included[0]).toMatchObject({ type: 'organisations', id: a.org.id });
  });

  it('spans every organisation the caller may view, merged in sort order', async () => {
    const both = await createServiceAccountClient('both', [
      { org_id: a.org.id, role: 'viewer' },
      { org_id: b.org.id, role: 'viewer' },
    ]);
    const res = await api.get(
      '/v3/feature-configurations?include=organisation&limit=2',
      await api.token(both),
    );
    expect(res.body.data.map((f: { attributes: { domain: string } }) => f.attributes.domain)).toEqual([
      'cdm',
      'costs',
    ]);
    expect(res.body.meta.pagination.counts).toEqual({ pages: 2, resources: 3 });
    const next = await api.get('/v3/feature-configurations?limit=2&offset=2', await api.token(both));
    expect(next.body.data.map((f: { attributes: { domain: string } }) => f.attributes.domain)).toEqual([
      'permits',
    ]);
  });

  it('filter[enabled]=false takes a boolean', async () => {
    const token = await api.token(a.viewer);
    const res = await api.get('/v3/feature-configurations?filter[enabled]=false', token);
    expect(res.body.data.map((f: { meta: { name: string } }) => f.meta.name)).toEqual(['Cost register']);
    expect((await api.get('/v3/feature-configurations?filter[enabled]=nope', token)).status).toBe(400);
  });

  it('a caller with no grants anywhere is 403 AUTH.002', async () => {
    const none = await createServiceAccountClient('no-role', []);
    const res = await api.get('/v3/feature-configurations', await api.token(none));
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toMatchObject({ code: 'AUTH.002', title: 'Forbidden' });
  });
});
