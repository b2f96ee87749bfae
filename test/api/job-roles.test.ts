/**
 * Job roles (issue 16's example of a plain resource: one declaration, `functions/people/job-roles.ts`;
 * issue 21 adds who holds them). Everything here comes from the platform: routes, permission, generic
 * handlers, schema, unique code, links and collection features.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '#shared/auth/sessions';
import { grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: Record<string, string>;
let viewer: Record<string, string>;
let outsider: string;

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Job Roles Org', 2), newTenant('Job Roles Other', 0)]);
  const [first, second] = tenant.people.map((p) => p.id);
  await grantRole(tenant.org.id, 'admin', 'user', first ?? '');
  await grantRole(tenant.org.id, 'viewer', 'user', second ?? '');
  admin = { 'x-session-token': (await startSession(first ?? '')).token };
  viewer = { 'x-session-token': (await startSession(second ?? '')).token };
  outsider = await api.token(other.admin);
});
afterAll(() => api.close());

const collection = (orgId = tenant.org.id) => `/v3/orgs/${orgId}/people/job-roles`;
const create = (attributes: object, headers = admin) =>
  api.request('POST', collection(), { headers, body: { data: { type: 'job-roles', attributes } } });

describe('job roles: name, code (unique per organisation), description', () => {
  it('POST creates one: 201, Location and links.self name its own page, which answers it', async () => {
    const res = await create({
      name: 'Site supervisor',
      code: 'SSUP',
      description: 'Runs a site day to day.',
    });
    expect(res.status, res.text).toBe(201);
    const { id, links, attributes } = res.body.data;
    expect(attributes).toEqual({
      name: 'Site supervisor',
      code: 'SSUP',
      description: 'Runs a site day to day.',
    });
    expect(links.self).toMatch(new RegExp(`/v3/job-roles/${id}$`));
    expect(res.headers.get('location')).toBe(links.self);
    const read = await api.request('GET', `/v3/job-roles/${id}`, { headers: viewer });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.attributes.code).toBe('SSUP');
  });

  it('a code already used in the organisation is 409 at /data/attributes/code; another organisation may use it', async () => {
    expect((await create({ name: 'Banksman', code: 'BANK' })).status).toBe(201);
    const taken = await create({ name: 'Slinger signaller', code: 'BANK' });
    expect(taken.status, taken.text).toBe(409);
    expect(taken.body.errors[0].source).toEqual({ pointer: '/data/attributes/code' });
    const elsewhere = await api.request('POST', collection(other.org.id), {
      token: outsider,
      body: { data: { type: 'job-roles', attributes: { name: 'Banksman', code: 'BANK' } } },
    });
    expect(elsewhere.status, elsewhere.text).toBe(201);
  });

  it('changing the code frees the old one; deleting the role frees its code', async () => {
    const { body } = await create({ name: 'Plant operator', code: 'PLANT' });
    const id = body.data.id as string;
    const patch = await api.request('PATCH', `/v3/job-roles/${id}`, {
      headers: admin,
      body: { data: { type: 'job-roles', id, attributes: { code: 'PLANT-1' } } },
    });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.body.data.attributes).toMatchObject({ name: 'Plant operator', code: 'PLANT-1' });
    expect((await create({ name: 'Plant operator 2', code: 'PLANT' })).status).toBe(201);
    expect((await api.request('DELETE', `/v3/job-roles/${id}`, { headers: admin })).status).toBe(204);
    expect((await api.request('GET', `/v3/job-roles/${id}`, { headers: admin })).status).toBe(404);
    expect((await create({ name: 'Plant operator again', code: 'PLANT-1' })).status).toBe(201);
  });

  it('bad input is 400 with a pointer and writes nothing: a missing name, an unknown attribute, an over-long code', async () => {
    for (const [attributes, pointer] of [
      [{ code: 'NONAME' }, '/data/attributes/name'],
      [{ name: 'Welder', code: 'WELD', grade: 3 }, '/data/attributes/grade'],
      [{ name: 'Welder', code: 'W'.repeat(51) }, '/data/attributes/code'],
    ] as const) {
      const res = await create(attributes);
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors[0].source.pointer).toBe(pointer);
    }
    const list = await api.request('GET', `${collection()}?filter[name]=Welder`, { headers: admin });
    expect(list.body.data).toEqual([]);
  });

  it('the collection filters by code and sorts by name; a viewer reads but cannot write (403)', async () => {
    await create({ name: 'Zone marshal', code: 'ZM' });
    await create({ name: 'Appointed person', code: 'AP' });
    const byCode = await api.request('GET', `${collection()}?filter[code]=ZM`, { headers: viewer });
    expect(byCode.status, byCode.text).toBe(200);
    expect(byCode.body.data.map((r: { attributes: { name: string } }) => r.attributes.name)).toEqual([
      'Zone marshal',
    ]);
    const names = (await api.request('GET', `${collection()}?sort=name`, { headers: viewer })).body.data.map(
      (r: { attributes: { name: string } }) => r.attributes.name,
    );
    expect(names).toEqual([...names].sort());
    expect((await create({ name: 'Viewer made', code: 'VM' }, viewer)).status).toBe(403);
  });

  it('another organisation’s caller neither lists nor reads them: 404, as if neither existed', async () => {
    const { body } = await create({ name: 'Temporary works coordinator', code: 'TWC' });
    const list = await api.request('GET', collection(), { token: outsider });
    expect(list.status).toBe(404);
    const read = await api.request('GET', `/v3/job-roles/${body.data.id}`, { token: outsider });
    expect(read.status).toBe(404);
  });
});
