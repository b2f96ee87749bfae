import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceAccountClient } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let a: Tenant;
let b: Tenant;
let c: Tenant;

beforeAll(async () => {
  api = await startTestApi();
  [a, b, c] = await Promise.all([
    newTenant('Bravo Utilities', 0),
    newTenant('Alpha Renewables', 0),
    newTenant('Charlie', 0),
  ]);
});
afterAll(() => api.close());

describe('GET /v3/orgs', () => {
  it('lists only the organisations the caller holds grants in, with links.self', async () => {
    const res = await api.get('/v3/orgs', await api.token(a.viewer));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        type: 'organisations',
        id: a.org.id,
        attributes: {
          name: 'Bravo Utilities',
          slug: a.org.attributes.slug,
          description: 'Bravo Utilities, made by a test.',
        },
        meta: { created_at: expect.any(String), updated_at: expect.any(String), status: 'active' },
        relationships: {},
        links: { self: `${api.url}/v3/orgs/${a.org.id}` },
      },
    ]);
    expect(res.body.meta.pagination.counts).toEqual({ pages: 1, resources: 1 });
  });

  it('a caller with grants in several organisations sees each once, sorted by name', async () => {
    const multi = await createServiceAccountClient('multi', [
      { org_id: a.org.id, role: 'viewer' },
      { org_id: b.org.id, role: 'admin' },
      { org_id: b.org.id, role: 'viewer' },
    ]);
    const res = await api.get('/v3/orgs', await api.token(multi));
    expect(res.body.data.map((o: { id: string }) => o.id)).toEqual([b.org.id, a.org.id]);
    expect(res.body.data.map((o: { id: string }) => o.id)).not.toContain(c.org.id);
    const paged = await api.get('/v3/orgs?limit=1&offset=1&sort=-name', await api.token(multi));
    expect(paged.body.data.map((o: { id: string }) => o.id)).toEqual([b.org.id]);
    expect(paged.body.meta.pagination.offsets).toEqual({ previous: 0, next: null });
  });

  it('filter[slug] narrows to one organisation', async () => {
    const multi = await createServiceAccountClient('multi-2', [
      { org_id: a.org.id, role: 'viewer' },
      { org_id: c.org.id, role: 'viewer' },
    ]);
    const res = await api.get(`/v3/orgs?filter[slug]=${c.org.attributes.slug}`, await api.token(multi));
    expect(res.body.data.map((o: { id: string }) => o.id)).toEqual([c.org.id]);
  });
});
