import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let token: string;
let vehicle: string;
const kit: string[] = [];
let foreignKit: string;

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Checks Org', 0), newTenant('Checks Other', 0)]);
  token = await api.token(tenant.admin);
  const post = async (orgToken: string, path: string, body: object) => {
    const res = await api.request('POST', path, { token: orgToken, body });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  vehicle = await post(token, `/v3/orgs/${tenant.org.id}/assets/vehicles`, {
    data: { type: 'vehicles', attributes: { registration: 'KC25 ABC' } },
  });
  for (const serial of ['FA-1', 'FE-2', 'LAD-3']) {
    kit.push(
      await post(token, `/v3/orgs/${tenant.org.id}/assets/equipment`, {
        data: { type: 'equipment-items', attributes: { serial } },
      }),
    );
  }
  foreignKit = await post(await api.token(other.admin), `/v3/orgs/${other.org.id}/assets/equipment`, {
    data: { type: 'equipment-items', attributes: { serial: 'X-1' } },
  });
});
afterAll(() => api.close());

const checkBody = (items: object[]) => ({
  data: {
    type: 'vehicle-inventory-checks',
    attributes: { inspected_at: '2026-11-20T07:30:00Z', items },
    relationships: { vehicle: { data: { type: 'vehicles', id: vehicle } } },
  },
});

describe('vehicle inventory checks', () => {
  it('a check of more items than one transaction can check (with its event) is 413, never 500, and writes nothing', async () => {
    const path = `/v3/orgs/${tenant.org.id}/assets/vehicle-inventory-checks`;
    const before = (await api.get(path, token)).body.meta.pagination.counts.resources;
    const items = Array.from({ length: 120 }, () => ({ equipment_id: randomUUID(), present: true }));
    const res = await api.request('POST', path, { token, body: checkBody(items) });
    expect(res.status, res.text).toBe(413);
    expect(res.body.errors[0].detail).toMatch(/too many records to apply at once/);
    expect((await api.get(path, token)).body.meta.pagination.counts.resources).toBe(before);
  });

  it('create computes meta.summary from the items; a missing flag counts as unknown', async () => {
    const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/assets/vehicle-inventory-checks`, {
      token,
      body: checkBody([
        { equipment_id: kit[0], present: true, working: true, certified: true },
        { equipment_id: kit[1], present: true, working: false },
        { equipment_id: kit[2], present: false },
      ]),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.meta.summary).toEqual({
      present: { total: 3, passed: 2, failed: 1, unknown: 0 },
      working: { total: 3, passed: 1, failed: 1, unknown: 1 },
      certified: { total: 3, passed: 1, failed: 0, unknown: 2 },
    });
    expect(res.body.data.relationships.vehicle.data).toEqual({ type: 'vehicles', id: vehicle });
    expect(res.body.data.relationships.equipment.data.map((e: { id: string }) => e.id)).toEqual(kit);
  });

  it('PATCH changes items, recomputes the summary and includes the equipment items', async () => {
    const created = await api.request('POST', `/v3/orgs/${tenant.org.id}/assets/vehicle-inventory-checks`, {
      token,
      body: checkBody([
        { equipment_id: kit[0], present: true },
        { equipment_id: kit[1], present: false },
      ]),
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id;
    const res = await api.request('PATCH', `/v3/vehicle-inventory-checks/${id}`, {
      token,
      body: {
        data: {
          type: 'vehicle-inventory-checks',
          id,
          attributes: { items: [{ equipment_id: kit[2], present: true, working: true, certified: true }] },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.meta.summary.present).toEqual({ total: 1, passed: 1, failed: 0, unknown: 0 });
    expect(res.body.data.attributes.inspected_at).toBe('2026-11-20T07:30:00.000Z');
    expect(res.body.included.map((e: { type: string; id: string }) => [e.type, e.id])).toEqual([
      ['equipment-items', kit[2]],
    ]);
  });

  it('an item naming equipment outside the organisation is 400 at that item, and nothing is written', async () => {
    const before = await api.get(`/v3/orgs/${tenant.org.id}/assets/vehicle-inventory-checks`, token);
    const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/assets/vehicle-inventory-checks`, {
      token,
      body: checkBody([
        { equipment_id: kit[0], present: true },
        { equipment_id: foreignKit, present: true },
      ]),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/items/1/equipment_id' });
    const after = await api.get(`/v3/orgs/${tenant.org.id}/assets/vehicle-inventory-checks`, token);
    expect(after.body.meta.pagination.counts.resources).toBe(before.body.meta.pagination.counts.resources);
  });

  it('an unknown item member or a repeated equipment item is 400', async () => {
    const unknown = await api.request('POST', `/v3/orgs/${tenant.org.id}/assets/vehicle-inventory-checks`, {
      token,
      body: checkBody([{ equipment_id: kit[0], present: true, colour: 'red' }]),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].source).toEqual({ pointer: '/data/attributes/items/0/colour' });
    const twice = await api.request('POST', `/v3/orgs/${tenant.org.id}/assets/vehicle-inventory-checks`, {
      token,
      body: checkBody([{ equipment_id: kit[0] }, { equipment_id: kit[0] }]),
    });
    expect(twice.status).toBe(400);
  });
});
