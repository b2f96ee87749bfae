import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureCatalogue } from '#shared/routes';
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
  // Each organisation's switches (`component: area`) are listed too (feature-configurations-switch.test.ts):
  // these requests name the components of this file's configurations.
  it('lists the caller’s organisations’ configurations: domain, component, enabled; meta name', async () => {
    const token = await api.token(a.viewer);
    const pages = await Promise.all(
      ['construction-phase-plans', 'cost-rollups', 'street-works'].map((component) =>
        api.get(`/v3/feature-configurations?filter[component]=${component}`, token),
      ),
    );
    for (const res of pages) expect(res.status).toBe(200);
    const data = pages.flatMap((res) => res.body.data);
    expect(data.map((f: { attributes: object }) => f.attributes)).toEqual([
      { domain: 'cdm', component: 'construction-phase-plans', enabled: true },
      { domain: 'costs', component: 'cost-rollups', enabled: false },
    ]);
    expect(data[0].meta.name).toBe('CPP');
    expect(data[0].relationships.organisation.data).toEqual({ type: 'organisations', id: a.org.id });
    expect(pages[0]?.body.included).toBeUndefined();
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
    // Each organisation's switches (`component: area`, one per catalogued feature) are listed beside this
    // file's three configurations: the first page holds both organisations' first switch by domain.
    const token = await api.token(both);
    const resources = 3 + 2 * featureCatalogue.size;
    const res = await api.get('/v3/feature-configurations?include=organisation&limit=2', token);
    const [first] = [...featureCatalogue.keys(), 'cdm', 'costs', 'permits'].sort();
    expect(res.body.data.map((f: { attributes: { domain: string } }) => f.attributes.domain)).toEqual([
      first,
      first,
    ]);
    expect(res.body.included.map((o: { id: string }) => o.id).sort()).toEqual([a.org.id, b.org.id].sort());
    expect(res.body.meta.pagination.counts).toEqual({ pages: Math.ceil(resources / 2), resources });
    const all = await api.get('/v3/feature-configurations?limit=100', token);
    const domains = all.body.data.map((f: { attributes: { domain: string } }) => f.attributes.domain);
    const operators = all.body.data.filter(
      (f: { attributes: { component: string } }) => f.attributes.component !== 'area',
    );
    expect(operators.map((f: { attributes: { domain: string } }) => f.attributes.domain)).toEqual([
      'cdm',
      'costs',
      'permits',
    ]);
    const next = await api.get(
      `/v3/feature-configurations?limit=2&offset=${domains.indexOf('permits')}`,
      token,
    );
    expect(next.body.data[0].attributes).toEqual({
      domain: 'permits',
      component: 'street-works',
      enabled: true,
    });
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
