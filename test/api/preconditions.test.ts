/**
 * Conditional requests (shared/http/preconditions.ts): single-record answers carry a strong ETag,
 * `If-Match` makes a change conditional on the version it names (checked in the write's own
 * transaction), `If-None-Match` answers 304 while the client's copy is current.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { equipmentItems } from '#functions/assets/definitions';
import { equipmentCrud } from '#functions/assets/equipment/writes';
import { scopeOf } from '#shared/data/scope';
import { readInScope } from '#shared/engine/single';
import { PreconditionFailedError } from '#shared/jsonapi/errors';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Preconditions Org', 1);
  token = await api.token(tenant.admin);
});
afterAll(() => api.close());

const equipment = () => `/v3/orgs/${tenant.org.id}/assets/equipment`;
const newItem = async (serial: string) => {
  const res = await api.request('POST', equipment(), {
    token,
    body: { data: { type: 'equipment-items', attributes: { serial } } },
  });
  expect(res.status, res.text).toBe(201);
  expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
  return res.body.data.id as string;
};
const patch = (id: string, attributes: object, headers: Record<string, string> = {}) =>
  api.request('PATCH', `${equipment()}/${id}`, {
    token,
    headers,
    body: { data: { type: 'equipment-items', id, attributes } },
  });

describe('If-Match: two editors of one equipment item', () => {
  it('the first change with the current ETag wins; the second, with the old one, is 412 and nothing is lost', async () => {
    const id = await newItem('PRE-1');
    const [a, b] = await Promise.all([
      api.get(`${equipment()}/${id}`, token),
      api.get(`${equipment()}/${id}`, token),
    ]);
    const read = a.headers.get('etag') ?? '';
    expect(b.headers.get('etag')).toBe(read);

    const won = await patch(id, { description: 'A' }, { 'If-Match': read });
    expect(won.status, won.text).toBe(200);
    const current = won.headers.get('etag');
    expect(current).not.toBe(read);

    const lost = await patch(id, { description: 'B' }, { 'If-Match': read });
    expect(lost.status, lost.text).toBe(412);
    expect(lost.body.errors[0]).toMatchObject({
      code: 'PRECONDITION.001',
      source: { header: 'If-Match' },
      meta: { etag: current },
    });
    expect(lost.headers.get('etag')).toBe(current);

    const after = await api.get(`${equipment()}/${id}`, token);
    expect(after.body.data.attributes.description).toBe('A');
    expect(after.headers.get('etag')).toBe(current);
  });

  it('DELETE with a stale If-Match is 412 and the record stays; with the current one it goes', async () => {
    const id = await newItem('PRE-2');
    const stale = (await api.get(`${equipment()}/${id}`, token)).headers.get('etag') ?? '';
    const current = (await patch(id, { description: 'changed' })).headers.get('etag') ?? '';
    const refused = await api.request('DELETE', `${equipment()}/${id}`, {
      token,
      headers: { 'If-Match': stale },
    });
    expect(refused.status, refused.text).toBe(412);
    expect((await api.get(`${equipment()}/${id}`, token)).status).toBe(200);
    const done = await api.request('DELETE', `${equipment()}/${id}`, {
      token,
      headers: { 'If-Match': current },
    });
    expect(done.status, done.text).toBe(204);
  });

  it('If-Match: * matches any existing record; a malformed If-Match is 400 at the header; none changes nothing', async () => {
    const id = await newItem('PRE-3');
    expect((await patch(id, { description: 'star' }, { 'If-Match': '*' })).status).toBe(200);
    const malformed = await patch(id, { description: 'x' }, { 'If-Match': 'not-a-tag' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].source).toEqual({ header: 'If-Match' });
    expect((await patch(id, { description: 'plain' })).status).toBe(200);
  });
});

describe('ETag and If-None-Match on a GET of one record', () => {
  it('the ETag changes exactly when the record changes; If-None-Match of the current one is 304, after a change 200', async () => {
    const id = await newItem('PRE-4');
    const first = await api.get(`${equipment()}/${id}`, token);
    const tag = first.headers.get('etag') ?? '';
    expect((await api.get(`${equipment()}/${id}`, token)).headers.get('etag')).toBe(tag);

    const unchanged = await api.request('GET', `${equipment()}/${id}`, {
      token,
      headers: { 'If-None-Match': tag },
    });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    expect(unchanged.headers.get('etag')).toBe(tag);
    const star = await api.request('GET', `${equipment()}/${id}`, {
      token,
      headers: { 'If-None-Match': '*' },
    });
    expect(star.status).toBe(304);

    await patch(id, { description: 'moved on' });
    const changed = await api.request('GET', `${equipment()}/${id}`, {
      token,
      headers: { 'If-None-Match': tag },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
  });
});

describe('If-Match is a condition of the write’s own transaction', () => {
  it('a change committed between the check and the write is refused with 412, and it stands', async () => {
    const id = await newItem('PRE-5');
    const tag = (await api.get(`${equipment()}/${id}`, token)).headers.get('etag') ?? '';
    const scope = { ...scopeOf([tenant.org.id]), precondition: { id, ifMatch: [tag] } };
    const checked = await readInScope(scope, equipmentItems, id); // If-Match holds here
    expect((await patch(id, { description: 'in between' })).status).toBe(200);
    const write = equipmentCrud.update(scope, checked, {
      data: { type: 'equipment-items', id, attributes: { description: 'late' } },
    });
    await expect(write).rejects.toBeInstanceOf(PreconditionFailedError);
    expect((await api.get(`${equipment()}/${id}`, token)).body.data.attributes.description).toBe(
      'in between',
    );
  });
});

describe('If-Match on a declared transition (…/approve, …/reject)', () => {
  const award = async () => {
    const type = await api.request('POST', `/v3/orgs/${tenant.org.id}/qualifications/types`, {
      token,
      body: {
        data: {
          type: 'qualification-types',
          attributes: { kind: 'training', name: `Preconditions ${Date.now()}`, has_expiry: false },
        },
      },
    });
    expect(type.status, type.text).toBe(201);
    const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/qualifications/awards`, {
      token,
      body: {
        data: {
          type: 'qualification-awards',
          attributes: { issued_at: '2026-01-05' },
          relationships: {
            person: { data: { type: 'users', id: tenant.people[0]?.id } },
            qualification_type: { data: { type: 'qualification-types', id: type.body.data.id } },
          },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const move = (id: string, verb: string, ifMatch: string) =>
    api.request('POST', `/v3/qualification-awards/${id}/${verb}`, {
      token,
      headers: { 'If-Match': ifMatch },
    });

  it('two deciders of one award: the approval with the current ETag wins; the rejection with the same, now stale, is 412 and writes nothing', async () => {
    const id = await award();
    const read = (await api.get(`/v3/qualification-awards/${id}`, token)).headers.get('etag') ?? '';
    const approved = await move(id, 'approve', read);
    expect(approved.status, approved.text).toBe(200);
    const current = approved.headers.get('etag');
    expect(current).not.toBe(read);

    const stale = await move(id, 'reject', read);
    expect(stale.status, stale.text).toBe(412);
    expect(stale.body.errors[0]).toMatchObject({ code: 'PRECONDITION.001', meta: { etag: current } });
    expect(stale.headers.get('etag')).toBe(current);
    const after = await api.get(`/v3/qualification-awards/${id}`, token);
    expect(after.headers.get('etag')).toBe(current);
    expect(after.body.data.attributes.status).toBe('valid');
  });
});
