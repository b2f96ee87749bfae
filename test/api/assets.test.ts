import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, startTestApi, type TestApi } from '../support/api';
import { deliverEvents } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let token: string;
let otherToken: string;
const graph: Record<string, string> = {};

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Assets Org', 2), newTenant('Assets Other', 1)]);
  [token, otherToken] = await Promise.all([api.token(tenant.admin), api.token(other.admin)]);
  await buildGraph();
});
afterAll(() => api.close());

const assets = (orgId = tenant.org.id) => `/v3/orgs/${orgId}/assets`;
const created = async (path: string, body: object, as = token): Promise<string> => {
  const res = await api.request('POST', path, { token: as, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const one = (type: string, id: string) => ({ data: { type, id } });

/** Manufacturer → model (two categories) → vehicle specification → vehicle → equipment, for the reads below. */
const buildGraph = async () => {
  graph.manufacturer = await created(`${assets()}/equipment-manufacturers`, {
    data: {
      type: 'equipment-manufacturers',
      attributes: { name: 'Hilti', website: 'https://hilti.example' },
    },
  });
  graph.drills = await created(`${assets()}/equipment-categories`, {
    data: { type: 'equipment-categories', attributes: { name: 'Drills' } },
  });
  graph.hav = await created(`${assets()}/equipment-categories`, {
    data: { type: 'equipment-categories', attributes: { name: 'HAV tools' } },
  });
  graph.model = await created(`${assets()}/equipment-models`, {
    data: {
      type: 'equipment-models',
      attributes: { name: 'TE 30-A36' },
      relationships: {
        manufacturer: one('equipment-manufacturers', graph.manufacturer),
        categories: {
          data: [
            { type: 'equipment-categories', id: graph.drills },
            { type: 'equipment-categories', id: graph.hav },
          ],
        },
      },
    },
  });
  graph.specification = await created(`${assets()}/vehicle-specifications`, {
    data: {
      type: 'vehicle-specifications',
      attributes: { name: 'Crew van', fuel_type: 'diesel', seats: 6 },
      relationships: { model: one('equipment-models', graph.model) },
    },
  });
  graph.vehicle = await created(`${assets()}/vehicles`, {
    data: {
      type: 'vehicles',
      attributes: { registration: 'NW24 KDE', make: 'Ford', model_name: 'Transit' },
      relationships: {
        specification: one('vehicle-specifications', graph.specification),
        user: one('users', tenant.people[0]?.id ?? ''),
      },
    },
  });
  graph.equipment = await created(`${assets()}/equipment`, {
    data: {
      type: 'equipment-items',
      attributes: {
        serial: 'HIL-0001',
        reference: 'EQ-1',
        asset_number: 'A-100',
        is_rented: false,
        purchased_at: '2025-03-01T09:00:00Z',
        vibration_source: true,
        vibration_magnitude: 7.5,
        description: 'Rotary hammer',
      },
      relationships: {
        model: one('equipment-models', graph.model),
        vehicle: one('vehicles', graph.vehicle),
      },
    },
  });
};

describe('building the equipment graph through the API', () => {
  it('an equipment item has every field, meta and relationship of the spec’s table', async () => {
    const res = await api.get(`${assets()}/equipment/${graph.equipment}`, token);
    expect(res.status).toBe(200);
    const item = res.body.data;
    expect(item.attributes).toEqual({
      serial: 'HIL-0001',
      reference: 'EQ-1',
      asset_number: 'A-100',
      is_rented: false,
      purchased_at: '2025-03-01T09:00:00.000Z',
      vibration_source: true,
      vibration_magnitude: 7.5,
      description: 'Rotary hammer',
      status: 'active',
    });
    expect(item.meta).toMatchObject({ created_at: expect.any(String), updated_at: expect.any(String) });
    expect(Object.keys(item.relationships).sort()).toEqual(
      [
        'allocated_location',
        'allocated_person',
        'allocated_scheme',
        'allocated_vehicle',
        'allocated_work_order',
        'business_area',
        'categories',
        'certifications',
        'equipment_status',
        'folder',
        'inherited_categories',
        'manufacturer',
        'model',
        'organisation',
        'owner',
        'pre_allocations',
        'vehicle',
      ].sort(),
    );
    expect(item.relationships.inherited_categories.data.map((c: { id: string }) => c.id).sort()).toEqual(
      [graph.drills, graph.hav].sort(),
    );
    expect(item.relationships.vehicle.data).toEqual({ type: 'vehicles', id: graph.vehicle });
    expect(item.relationships.allocated_vehicle.data).toEqual({
      type: 'vehicles',
      id: graph.vehicle,
      meta: { starts_at: expect.any(String) },
    });
    expect(item.relationships.allocated_location.data).toBeNull();
  });

  it('list includes model, model.manufacturer, model.categories, vehicle and vehicle.equipment in one document', async () => {
    const res = await api.get(
      `${assets()}/equipment?filter[serial]=HIL-0001&include=model.manufacturer,model.categories,vehicle.equipment`,
      token,
    );
    expect(res.status).toBe(200);
    const types = res.body.included.map((r: { type: string }) => r.type).sort();
    expect(types).toEqual([
      'equipment-categories',
      'equipment-categories',
      'equipment-manufacturers',
      'equipment-models',
      'vehicles',
    ]);
    const vehicle = res.body.included.find((r: { type: string }) => r.type === 'vehicles');
    expect(vehicle.relationships.equipment.data).toEqual([{ type: 'equipment-items', id: graph.equipment }]);
  });

  it('one item includes vehicle.user and vehicle.specification.model.manufacturer', async () => {
    const res = await api.get(
      `${assets()}/equipment/${graph.equipment}?include=vehicle.user,vehicle.specification.model.manufacturer,vehicle.specification.model.categories`,
      token,
    );
    expect(res.status, res.text).toBe(200);
    const types = new Set(res.body.included.map((r: { type: string }) => r.type));
    expect([...types].sort()).toEqual(
      [
        'equipment-categories',
        'equipment-manufacturers',
        'equipment-models',
        'users',
        'vehicle-specifications',
        'vehicles',
      ].sort(),
    );
  });

  it('a relationship naming another organisation’s record is 400 at its pointer, and nothing is written', async () => {
    const foreign = await created(
      `${assets(other.org.id)}/equipment-manufacturers`,
      {
        data: { type: 'equipment-manufacturers', attributes: { name: 'Foreign' } },
      },
      otherToken,
    );
    const before = await api.get(`${assets()}/equipment-models`, token);
    const res = await api.request('POST', `${assets()}/equipment-models`, {
      token,
      body: {
        data: {
          type: 'equipment-models',
          attributes: { name: 'X' },
          relationships: { manufacturer: one('equipment-manufacturers', foreign) },
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/relationships/manufacturer/data' });
    const after = await api.get(`${assets()}/equipment-models`, token);
    expect(after.body.meta.pagination.counts.resources).toBe(before.body.meta.pagination.counts.resources);
  });
});

const equipment = (serial: string, extra: object = {}) => ({
  data: { type: 'equipment-items', attributes: { serial, ...extra } },
});

describe('serial is unique within an organisation', () => {
  it('of 8 concurrent creates with one serial exactly one succeeds; the rest are 409 CONFLICT.001', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.request('POST', `${assets()}/equipment`, { token, body: equipment('RACE-1') }),
      ),
    );
    const statuses = answers.map((a: ApiResponse) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const conflict = answers.find((a) => a.status === 409);
    expect(conflict?.body.errors[0]).toMatchObject({
      code: 'CONFLICT.001',
      source: { pointer: '/data/attributes/serial' },
    });
    const list = await api.get(`${assets()}/equipment?filter[serial]=RACE-1`, token);
    expect(list.body.data).toHaveLength(1);
  });

  it('the same serial is fine in another organisation', async () => {
    await created(`${assets()}/equipment`, equipment('TWIN-1'));
    await created(`${assets(other.org.id)}/equipment`, equipment('TWIN-1'), otherToken);
    expect(
      (await api.request('POST', `${assets()}/equipment`, { token, body: equipment('TWIN-1') })).status,
    ).toBe(409);
  });

  it('changing a serial moves its claim: the old serial is free, the new one is taken', async () => {
    const id = await created(`${assets()}/equipment`, equipment('MOVE-1'));
    const res = await api.request('PATCH', `${assets()}/equipment/${id}`, {
      token,
      body: { data: { type: 'equipment-items', id, attributes: { serial: 'MOVE-2' } } },
    });
    expect(res.status, res.text).toBe(200);
    await created(`${assets()}/equipment`, equipment('MOVE-1'));
    expect(
      (await api.request('POST', `${assets()}/equipment`, { token, body: equipment('MOVE-2') })).status,
    ).toBe(409);
  });

  it('deleting an item frees its serial', async () => {
    const id = await created(`${assets()}/equipment`, equipment('GONE-1'));
    expect((await api.request('DELETE', `${assets()}/equipment/${id}`, { token })).status).toBe(204);
    await created(`${assets()}/equipment`, equipment('GONE-1'));
  });
});

describe('values that become keys are single lines of declared length (issue 15)', () => {
  it('a serial of 100 three-byte characters is claimed and found; longer, or holding a control character, is 400 and writes nothing', async () => {
    const longest = '€'.repeat(100);
    await created(`${assets()}/equipment`, equipment(longest));
    const found = await api.get(`${assets()}/equipment?filter[serial]=${encodeURIComponent(longest)}`, token);
    expect(found.body.data).toHaveLength(1);
    const before = (await api.get(`${assets()}/equipment`, token)).body.meta.pagination.counts.resources;
    for (const serial of [
      '€'.repeat(101),
      'k'.repeat(2049),
      'tab\there',
      'bell\u0007',
      'del\u007f',
      'c1\u0085',
    ]) {
      const res = await api.request('POST', `${assets()}/equipment`, { token, body: equipment(serial) });
      expect(res.status, JSON.stringify(serial)).toBe(400);
      expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/serial' });
    }
    expect((await api.get(`${assets()}/equipment`, token)).body.meta.pagination.counts.resources).toBe(
      before,
    );
  });

  it('a vehicle registration holding a control character is 400 (the fuzz found one accepted)', async () => {
    for (const registration of ['\u0001', 'AB\u001fCD', '\u007f']) {
      const res = await api.request('POST', `${assets()}/vehicles`, {
        token,
        body: { data: { type: 'vehicles', attributes: { registration } } },
      });
      expect(res.status, JSON.stringify(registration)).toBe(400);
      expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/registration' });
    }
  });

  it('a filter value longer than any key names nothing: 200 with an empty page', async () => {
    const res = await api.get(`${assets()}/equipment?filter[serial]=${'k'.repeat(4096)}`, token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});

describe('equipment collection features', () => {
  it('filters serial and status, sorts by serial both ways and by modified_at', async () => {
    await created(`${assets()}/equipment`, equipment('SORT-B', { status: 'in_repair' }));
    await created(`${assets()}/equipment`, equipment('SORT-A', { status: 'in_repair' }));
    const repair = await api.get(`${assets()}/equipment?filter[status]=in_repair&sort=serial`, token);
    expect(repair.body.data.map((e: { attributes: { serial: string } }) => e.attributes.serial)).toEqual([
      'SORT-A',
      'SORT-B',
    ]);
    const desc = await api.get(`${assets()}/equipment?filter[status]=in_repair&sort=-serial`, token);
    expect(desc.body.data.map((e: { attributes: { serial: string } }) => e.attributes.serial)).toEqual([
      'SORT-B',
      'SORT-A',
    ]);
    const recent = await api.get(`${assets()}/equipment?sort=-modified_at&limit=1`, token);
    expect(recent.body.data[0].attributes.serial).toBe('SORT-A');
    expect(recent.body.meta.features.params.sort.options).toEqual(['serial', 'created_at', 'modified_at']);
  });
});

describe('vehicle allocation', () => {
  const vehicle = () =>
    created(`${assets()}/vehicles`, { data: { type: 'vehicles', attributes: { registration: 'NW24 ALC' } } });
  const depot = () =>
    created(`/v3/orgs/${tenant.org.id}/governance/locations`, {
      data: {
        type: 'locations',
        attributes: { name: 'Kendal depot', location: { latitude: 54.32, longitude: -2.74 } },
      },
    });
  const allocate = (vehicleId: string, kind: string, body: object) =>
    api.request('PATCH', `/v3/vehicles/${vehicleId}/relationships/allocated_${kind}`, { token, body });
  /** The vehicle's history once the stream has handed the audit consumer the writes' events. */
  const history = async (vehicleId: string) => {
    await deliverEvents(tenant.org.id);
    return api.get(`/v3/vehicles/${vehicleId}/audit-events`, token);
  };
  const person = () => tenant.people[1]?.id ?? '';

  it('allocating to a location answers "vehicle allocation updated" and records starts_at', async () => {
    const [van, place] = [await vehicle(), await depot()];
    const res = await allocate(van, 'location', {
      data: { type: 'locations', id: place },
      meta: { starts_at: '2026-12-01T07:00:00Z' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta).toEqual({ message: 'vehicle allocation updated' });
    expect(res.body.data).toEqual({
      type: 'locations',
      id: place,
      meta: { starts_at: '2026-12-01T07:00:00.000Z' },
    });
    const read = await api.get(`/v3/vehicles/${van}`, token);
    expect(read.body.data.relationships.allocated_location.data).toEqual({
      type: 'locations',
      id: place,
      meta: { starts_at: '2026-12-01T07:00:00.000Z' },
    });
  });

  it('allocation is mutually exclusive: allocating to a person clears the location, and the history says so', async () => {
    const [van, place] = [await vehicle(), await depot()];
    expect((await allocate(van, 'location', { data: { type: 'locations', id: place } })).status).toBe(200);
    const res = await allocate(van, 'person', { data: { type: 'users', id: person() } });
    expect(res.status, res.text).toBe(200);
    const read = await api.get(`/v3/vehicles/${van}`, token);
    expect(read.body.data.relationships.allocated_location.data).toBeNull();
    expect(read.body.data.relationships.allocated_person.data.id).toBe(person());
    const events = await history(van);
    expect(events.body.data.map((e: { attributes: { action: string } }) => e.attributes.action)).toEqual([
      'vehicle.allocated',
      'vehicle.allocated',
      'vehicle.created',
    ]);
    const [latest] = events.body.data;
    // Only what the allocation changed: the location it left and the person it went to.
    expect(latest.attributes).toMatchObject({
      action: 'vehicle.allocated',
      subject: { type: 'vehicles', id: van },
      actor: { kind: 'service-account', id: tenant.admin.principalId },
      before: {
        relationships: { allocated_location: { data: { type: 'locations', id: place } } },
      },
      after: {
        relationships: {
          allocated_location: { data: null },
          allocated_person: { data: { type: 'users', id: person() } },
        },
      },
    });
    expect(Object.keys(latest.attributes.before)).toEqual(['relationships']);
    expect(Object.keys(latest.attributes.after.relationships).sort()).toEqual([
      'allocated_location',
      'allocated_person',
    ]);
    expect(latest.relationships.actor_service_account.data.id).toBe(tenant.admin.principalId);
  });

  it('a bad type, a malformed starts_at, an unknown or foreign location are refused and nothing is written', async () => {
    const [van, place] = [await vehicle(), await depot()];
    expect((await allocate(van, 'person', { data: { type: 'users', id: person() } })).status).toBe(200);
    const before = (await history(van)).body.meta.pagination.counts.resources;
    const foreign = await created(
      `/v3/orgs/${other.org.id}/governance/locations`,
      {
        data: { type: 'locations', attributes: { name: 'Elsewhere' } },
      },
      otherToken,
    );
    const cases: [object, number][] = [
      [{ data: { type: 'schemes', id: place } }, 400],
      [{ data: { type: 'locations', id: place }, meta: { starts_at: 'tomorrow' } }, 400],
      [{ data: { type: 'locations', id: tenant.org.id } }, 404],
      [{ data: { type: 'locations', id: foreign } }, 404],
    ];
    for (const [body, status] of cases) {
      const res = await allocate(van, 'location', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
    }
    expect((await history(van)).body.meta.pagination.counts.resources).toBe(before);
    const read = await api.get(`/v3/vehicles/${van}`, token);
    expect(read.body.data.relationships.allocated_person.data.id).toBe(person());
  });

  it('data: null clears the allocation', async () => {
    const van = await vehicle();
    expect((await allocate(van, 'person', { data: { type: 'users', id: person() } })).status).toBe(200);
    const res = await allocate(van, 'person', { data: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    const read = await api.get(`/v3/vehicles/${van}`, token);
    expect(read.body.data.relationships.allocated_person.data).toBeNull();
  });

  it('the organisation’s audit events filter by action and time window, newest first', async () => {
    const [van, place] = [await vehicle(), await depot()];
    for (const [kind, body] of [
      ['location', { data: { type: 'locations', id: place } }],
      ['person', { data: { type: 'users', id: person() } }],
      ['person', { data: null }],
    ] as const) {
      expect((await allocate(van, kind, body)).status).toBe(200);
    }
    await deliverEvents(tenant.org.id);
    const res = await api.get(
      `/v3/orgs/${tenant.org.id}/audit-events?filter[action]=vehicle.allocated&filter[subject_id]=${van}&filter[occurred_at.since]=2020-01-01T00:00:00Z`,
      token,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBe(3);
    const times = res.body.data.map((e: { attributes: { occurred_at: string } }) => e.attributes.occurred_at);
    expect([...times].sort().reverse()).toEqual(times);
    const future = await api.get(
      `/v3/orgs/${tenant.org.id}/audit-events?filter[subject_id]=${van}&filter[occurred_at.since]=2999-01-01T00:00:00Z`,
      token,
    );
    expect(future.body.data).toEqual([]);
  });

  it('a vehicle carrying equipment is not deleted (409)', async () => {
    const van = await vehicle();
    await created(`${assets()}/equipment`, {
      data: {
        type: 'equipment-items',
        attributes: { serial: 'CARRIED-1' },
        relationships: { vehicle: one('vehicles', van) },
      },
    });
    const res = await api.request('DELETE', `/v3/vehicles/${van}`, { token });
    expect(res.status).toBe(409);
  });
});

describe('moving equipment between vehicles', () => {
  it('keeps both vehicles’ equipment lists and the item’s allocation in step', async () => {
    const second = await created(`${assets()}/vehicles`, {
      data: { type: 'vehicles', attributes: { registration: 'NW25 MOV' } },
    });
    const item = await created(`${assets()}/equipment`, {
      data: {
        type: 'equipment-items',
        attributes: { serial: 'MOVE-VAN-1' },
        relationships: { vehicle: one('vehicles', graph.vehicle ?? '') },
      },
    });
    const moved = await api.request('PATCH', `${assets()}/equipment/${item}`, {
      token,
      body: {
        data: { type: 'equipment-items', id: item, relationships: { vehicle: one('vehicles', second) } },
      },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data.relationships.allocated_vehicle.data.id).toBe(second);
    const [from, to] = await Promise.all([
      api.get(`/v3/vehicles/${graph.vehicle}`, token),
      api.get(`/v3/vehicles/${second}`, token),
    ]);
    expect(from.body.data.relationships.equipment.data.map((e: { id: string }) => e.id)).not.toContain(item);
    expect(to.body.data.relationships.equipment.data).toEqual([{ type: 'equipment-items', id: item }]);
    const unknown = await api.request('PATCH', `${assets()}/equipment/${item}`, {
      token,
      body: {
        data: {
          type: 'equipment-items',
          id: item,
          relationships: { vehicle: one('vehicles', tenant.org.id) },
        },
      },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].source).toEqual({ pointer: '/data/relationships/vehicle/data' });
  });
});
