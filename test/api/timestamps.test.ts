/**
 * The spec's "Timestamps are ISO 8601 date-times in UTC": every timestamp the API accepts may be sent
 * with an offset, and is answered (by the write and by every later read) as the same instant in `Z`,
 * in the form the service writes its own (`created_at`). One schema type does it for every field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeOf } from '#shared/data/scope';
import { commit } from '#shared/data/transaction';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;

/** 09:00 at +02:00 is 07:00 UTC; the update moves it to 18:30 at -05:00, 23:30 UTC. */
const SENT = '2025-03-01T09:00:00+02:00';
const SERVED = '2025-03-01T07:00:00.000Z';
const SENT_LATER = '2025-03-02T18:30:00-05:00';
const SERVED_LATER = '2025-03-02T23:30:00.000Z';

const org = () => `/v3/orgs/${tenant.org.id}`;
const one = (type: string, id: string) => ({ data: { type, id } });
const send = async (method: string, path: string, data: object, status: number) => {
  const res = await api.request(method, path, { token, body: { data } });
  expect(res.status, res.text).toBe(status);
  return res.body;
};
const create = async (path: string, data: object) => (await send('POST', path, data, 201)).data;
const read = async (path: string) => {
  const res = await api.get(path, token);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Timestamps Org', 1);
  token = await api.token(tenant.admin);
});
afterAll(() => api.close());

describe('timestamps sent with an offset are stored and served in UTC', () => {
  it('equipment purchased_at: create, update and a later GET', async () => {
    const item = await create(`${org()}/assets/equipment`, {
      type: 'equipment-items',
      attributes: { serial: 'TS-1', purchased_at: SENT },
    });
    expect(item.attributes.purchased_at).toBe(SERVED);
    const path = `${org()}/assets/equipment/${item.id}`;
    expect((await read(path)).attributes.purchased_at).toBe(SERVED);
    const updated = await send(
      'PATCH',
      path,
      { type: 'equipment-items', id: item.id, attributes: { purchased_at: SENT_LATER } },
      200,
    );
    expect(updated.data.attributes.purchased_at).toBe(SERVED_LATER);
    expect((await read(path)).attributes.purchased_at).toBe(SERVED_LATER);
  });

  it('vehicle inventory check inspected_at: create, update and a later GET', async () => {
    const vehicle = await create(`${org()}/assets/vehicles`, {
      type: 'vehicles',
      attributes: { registration: 'TS01 ABC' },
    });
    const check = await create(`${org()}/assets/vehicle-inventory-checks`, {
      type: 'vehicle-inventory-checks',
      attributes: { inspected_at: SENT, items: [] },
      relationships: { vehicle: one('vehicles', vehicle.id) },
    });
    expect(check.attributes.inspected_at).toBe(SERVED);
    const path = `/v3/vehicle-inventory-checks/${check.id}`;
    expect((await read(path)).attributes.inspected_at).toBe(SERVED);
    const updated = await send(
      'PATCH',
      path,
      { type: 'vehicle-inventory-checks', id: check.id, attributes: { inspected_at: SENT_LATER } },
      200,
    );
    expect(updated.data.attributes.inspected_at).toBe(SERVED_LATER);
    expect((await read(path)).attributes.inspected_at).toBe(SERVED_LATER);
  });

  it('vehicle allocation meta.starts_at: the update and a later GET', async () => {
    const vehicle = await create(`${org()}/assets/vehicles`, {
      type: 'vehicles',
      attributes: { registration: 'TS02 ABC' },
    });
    const depot = await create(`${org()}/governance/locations`, {
      type: 'locations',
      attributes: { name: 'Depot' },
    });
    const allocated = await send(
      'PATCH',
      `/v3/vehicles/${vehicle.id}/relationships/allocated_location`,
      { type: 'locations', id: depot.id, meta: { starts_at: SENT } },
      200,
    );
    expect(allocated.data.meta.starts_at).toBe(SERVED);
    const read1 = await read(`/v3/vehicles/${vehicle.id}`);
    expect(read1.relationships.allocated_location.data.meta.starts_at).toBe(SERVED);
  });

  it('scheme dates.anticipated.start and end: create, PATCH, the deprecated PUT and a later GET', async () => {
    const scheme = await create(`${org()}/projects/schemes`, {
      type: 'schemes',
      attributes: { name: 'Offsets', dates: { anticipated: { start: SENT, end: SENT_LATER } } },
    });
    const both = { start: SERVED, end: SERVED_LATER };
    expect(scheme.attributes.dates.anticipated).toEqual(both);
    const path = `${org()}/projects/schemes/${scheme.id}`;
    expect((await read(path)).attributes.dates.anticipated).toEqual(both);
    const swapped = { start: SENT_LATER, end: '2025-03-03T00:00:00+01:00' };
    for (const method of ['PATCH', 'PUT']) {
      const updated = await send(
        method,
        path,
        // PUT replaces the attributes, so it names the scheme again.
        { type: 'schemes', id: scheme.id, attributes: { name: 'Offsets', dates: { anticipated: swapped } } },
        200,
      );
      const expected = { start: SERVED_LATER, end: '2025-03-02T23:00:00.000Z' };
      expect(updated.data.attributes.dates.anticipated, method).toEqual(expected);
      expect((await read(path)).attributes.dates.anticipated, method).toEqual(expected);
    }
  });

  it('customer interaction occurred_at and appointment starts_at/ends_at: create, update and a later GET', async () => {
    const interaction = await create(`${org()}/customers/interactions`, {
      type: 'customer-interactions',
      attributes: { channel: 'phone', direction: 'inbound', occurred_at: SENT, summary: 'Called' },
    });
    expect(interaction.attributes.occurred_at).toBe(SERVED);
    const interactionPath = `${org()}/customers/interactions/${interaction.id}`;
    expect((await read(interactionPath)).attributes.occurred_at).toBe(SERVED);
    const changed = await send(
      'PATCH',
      interactionPath,
      { type: 'customer-interactions', id: interaction.id, attributes: { occurred_at: SENT_LATER } },
      200,
    );
    expect(changed.data.attributes.occurred_at).toBe(SERVED_LATER);
    expect((await read(interactionPath)).attributes.occurred_at).toBe(SERVED_LATER);

    const appointment = await create(`${org()}/customers/appointments`, {
      type: 'customer-appointments',
      attributes: { starts_at: SENT, ends_at: SENT_LATER, purpose: 'Survey', status: 'scheduled' },
    });
    expect(appointment.attributes).toMatchObject({ starts_at: SERVED, ends_at: SERVED_LATER });
    const appointmentPath = `${org()}/customers/appointments/${appointment.id}`;
    expect((await read(appointmentPath)).attributes).toMatchObject({
      starts_at: SERVED,
      ends_at: SERVED_LATER,
    });
    const moved = await send(
      'PATCH',
      appointmentPath,
      { type: 'customer-appointments', id: appointment.id, attributes: { starts_at: SENT_LATER } },
      200,
    );
    expect(moved.data.attributes.starts_at).toBe(SERVED_LATER);
    expect((await read(appointmentPath)).attributes.starts_at).toBe(SERVED_LATER);
  });

  it('rate version valid_from/valid_to and cost line at: create and a later GET (neither is updated)', async () => {
    const code = await create(`${org()}/costs/rate-codes`, {
      type: 'rate-codes',
      attributes: { code: 'TS-LAB', name: 'Labour', category: 'labour' },
    });
    const version = await create(`${org()}/costs/rate-codes/${code.id}/versions`, {
      type: 'rate-code-versions',
      attributes: {
        valid_from: SENT,
        valid_to: SENT_LATER,
        cost: { amount: 100, currency: 'GBP' },
        charge: { amount: 120, currency: 'GBP' },
      },
    });
    expect(version.attributes).toMatchObject({ valid_from: SERVED, valid_to: SERVED_LATER });
    const versions = await read(`${org()}/costs/rate-codes/${code.id}/versions`);
    expect(versions[0].attributes).toMatchObject({ valid_from: SERVED, valid_to: SERVED_LATER });

    const contract = await create(`${org()}/projects/scheme-contracts`, {
      type: 'scheme-contracts',
      attributes: { name: 'Costed' },
    });
    const sheet = await create(`${org()}/costs/cost-sheets`, {
      type: 'cost-sheets',
      attributes: { name: 'Sheet', status: 'quoted' },
      relationships: { scheme_contract: one('scheme-contracts', contract.id) },
    });
    // 12:00 at +02:00 is 10:00 UTC, inside the version (07:00 on the 1st to 23:30 on the 2nd).
    const line = await create(`${org()}/costs/cost-sheets/${sheet.id}/lines`, {
      type: 'cost-lines',
      attributes: { quantity: 1, at: '2025-03-01T12:00:00+02:00' },
      relationships: { rate_code: one('rate-codes', code.id) },
    });
    expect(line.attributes.at).toBe('2025-03-01T10:00:00.000Z');
    const lines = await read(`${org()}/costs/cost-lines`);
    expect(lines.find((l: { id: string }) => l.id === line.id).attributes.at).toBe(
      '2025-03-01T10:00:00.000Z',
    );
  });

  it('CDM appointment starts_at: create and a later GET', async () => {
    const scheme = await create(`${org()}/projects/schemes`, {
      type: 'schemes',
      attributes: { name: 'CDM offsets' },
    });
    const appointment = await create(`${org()}/projects/schemes/${scheme.id}/appointments`, {
      type: 'appointments',
      attributes: { role: 'client', starts_at: SENT },
      relationships: { user: one('users', tenant.people[0]?.id ?? '') },
    });
    expect(appointment.attributes.starts_at).toBe(SERVED);
    expect((await read(`/v3/appointments/${appointment.id}`)).attributes.starts_at).toBe(SERVED);
  });

  it('a timestamp without seconds or offset, or a date alone, is 400 pointing at the attribute', async () => {
    for (const purchased_at of [
      '2025-03-01T09:00',
      '2025-03-01T09:00:00',
      '2025-03-01',
      '2025-02-30T09:00:00Z',
    ]) {
      const res = await api.request('POST', `${org()}/assets/equipment`, {
        token,
        body: {
          data: { type: 'equipment-items', attributes: { serial: `BAD-${purchased_at}`, purchased_at } },
        },
      });
      expect(res.status, purchased_at).toBe(400);
      expect(res.body.errors[0].source.pointer).toBe('/data/attributes/purchased_at');
      expect(res.body.errors[0].detail).toMatch(/ISO 8601 date-time/);
    }
  });

  it('an instant outside the years 1900–2200 in UTC is 400 at the attribute, an offset included', async () => {
    for (const purchased_at of [
      '2200-12-31T23:30:00-01:00',
      '1900-01-01T00:30:00+01:00',
      '9999-12-31T23:59:59Z',
      '0000-01-01T00:00:00Z',
    ]) {
      const res = await api.request('POST', `${org()}/assets/equipment`, {
        token,
        body: { data: { type: 'equipment-items', attributes: { serial: 'EDGE', purchased_at } } },
      });
      expect(res.status, purchased_at).toBe(400);
      expect(res.body.errors[0].source.pointer).toBe('/data/attributes/purchased_at');
      expect(res.body.errors[0].detail).toMatch(/1900–2200/);
    }
  });
});

describe('a rate version at the edge of the accepted years is listed and is the latest', () => {
  const money = { cost: { amount: 100, currency: 'GBP' }, charge: { amount: 120, currency: 'GBP' } };
  const rateCode = async (code: string) =>
    create(`${org()}/costs/rate-codes`, {
      type: 'rate-codes',
      attributes: { code, name: 'Labour', category: 'labour' },
    });
  const addVersion = (codeId: string, valid_from: string) =>
    api.request('POST', `${org()}/costs/rate-codes/${codeId}/versions`, {
      token,
      body: { data: { type: 'rate-code-versions', attributes: { valid_from, ...money } } },
    });

  it('valid from 9999-12-31 is 400 at valid_from; from 2200-12-31T23:59:59Z it is created, listed, read and the latest', async () => {
    const code = await rateCode('TS-EDGE');
    const far = await addVersion(code.id, '9999-12-31T23:59:59Z');
    expect(far.status, far.text).toBe(400);
    expect(far.body.errors[0].source.pointer).toBe('/data/attributes/valid_from');
    const edge = await addVersion(code.id, '2200-12-31T23:59:59Z');
    expect(edge.status, edge.text).toBe(201);
    const listed = await read(`${org()}/costs/rate-codes/${code.id}/versions`);
    expect(listed.map((v: { id: string }) => v.id)).toEqual([edge.body.data.id]);
    await read(`${org()}/costs/rate-codes/${code.id}/versions/${edge.body.data.id}`);
    // The latest: a version must start after it.
    const earlier = await addVersion(code.id, '2100-01-01T00:00:00Z');
    expect(earlier.status, earlier.text).toBe(409);
    expect(earlier.body.errors[0].detail).toContain('2200-12-31T23:59:59.000Z');
  });

  it('a version stored before the years were bounded (valid from 9999-12-31) is still listed, read and the latest: no read ends at a sentinel', async () => {
    const code = await rateCode('TS-LEGACY');
    const id = '01a21c30-0000-7000-8000-000000000001';
    const validFrom = '9999-12-31T23:59:59.000Z';
    // Written as register.ts keeps versions (in the code's partition, keyed by valid_from), bypassing
    // today's schema, as a version accepted before the bound was.
    const stored = {
      pk: `ORG#${tenant.org.id}#rate-code-versions#${code.id}`,
      sk: `${validFrom}#${id}`,
      id,
      org_id: tenant.org.id,
      rate_code_id: code.id,
      valid_from: validFrom,
      valid_to: null,
      ...money,
    };
    await commit(scopeOf([tenant.org.id]), [{ put: stored }]);
    const listed = await read(`${org()}/costs/rate-codes/${code.id}/versions`);
    expect(listed.map((v: { id: string }) => v.id)).toEqual([id]);
    expect((await read(`${org()}/costs/rate-codes/${code.id}/versions/${id}`)).attributes.valid_from).toBe(
      validFrom,
    );
    const after = await addVersion(code.id, '2200-12-31T23:59:59Z');
    expect(after.status, after.text).toBe(409);
  });
});
