import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { latestEvent } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let token: string;
/** The hierarchy the test at hand built for itself (`buildHierarchy`). */
let ids: Record<string, string> = {};

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Projects Org', 1), newTenant('Projects Other', 0)]);
  token = await api.token(tenant.admin);
});
afterAll(() => api.close());

const projects = (orgId = tenant.org.id) => `/v3/orgs/${orgId}/projects`;
const create = async (
  segment: string,
  type: string,
  attributes: object,
  relationships?: object,
  org = tenant.org.id,
  as = token,
) => {
  const res = await api.request('POST', `${projects(org)}/${segment}`, {
    token: as,
    body: { data: { type, attributes, ...(relationships && { relationships }) } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const one = (type: string, id: string) => ({ data: { type, id } });
const many = (type: string, list: string[]) => ({ data: list.map((id) => ({ type, id })) });
const scheme = () => api.get(`${projects()}/schemes/${ids.scheme}`, token);

/** Contract → scheme → work orders A and B → four operations under A (done ×2, in progress, to do). */
const buildHierarchy = async (org = tenant.org.id, as = token, person = tenant.people[0]?.id ?? '') => {
  const made: Record<string, string> = {};
  made.contract = await create(
    'scheme-contracts',
    'scheme-contracts',
    { name: 'North region', code: 'NR' },
    undefined,
    org,
    as,
  );
  made.scheme = await create(
    'schemes',
    'schemes',
    {
      name: 'Trunk main renewal',
      code: 'TMR-01',
      description: 'Replace 4 km of 450 mm main',
      dates: { anticipated: { start: '2027-01-04T08:00:00Z', end: '2027-06-30T17:00:00Z' } },
      labels: [{ key: 'programme', value: 'AMP8' }],
    },
    {
      contracts: many('scheme-contracts', [made.contract ?? '']),
      site_managers: many('users', [person]),
    },
    org,
    as,
  );
  made.wo1 = await create(
    'work-orders',
    'work-orders',
    { name: 'Section A' },
    { scheme: one('schemes', made.scheme ?? '') },
    org,
    as,
  );
  made.wo2 = await create(
    'work-orders',
    'work-orders',
    { name: 'Section B' },
    { scheme: one('schemes', made.scheme ?? '') },
    org,
    as,
  );
  for (const [i, status, done_reason] of [
    [1, 'done', 'completed'],
    [2, 'done', 'aborted'],
    [3, 'in_progress', null],
    [4, 'todo', null],
  ] as const) {
    made[`op${i}`] = await create(
      'operations',
      'operations',
      { name: `Op ${i}`, status, done_reason },
      { work_order: one('work-orders', made.wo1 ?? '') },
      org,
      as,
    );
  }
  return made;
};

describe('the work hierarchy', () => {
  beforeEach(async () => {
    ids = await buildHierarchy();
  });

  it('builds contract → scheme → work orders → operations; the scheme has every field of the spec’s table', async () => {
    const res = await scheme();
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.attributes).toMatchObject({
      name: 'Trunk main renewal',
      code: 'TMR-01',
      status: 'in_planning',
      labels: [{ key: 'programme', value: 'AMP8' }],
    });
    expect(data.meta).toMatchObject({
      created_at: expect.any(String),
      updated_at: expect.any(String),
      modified_at: expect.any(String),
      from_template: false,
      is_default: false,
      imported_at: null,
      dates: { scheduled: { start: null, end: null } },
      counts: { operations: 4, work_orders: 2, permits: 0, properties: 0, locations: 0, streets: 0 },
      completeness: {
        counts: { completed: 1, aborted: 1, cancelled: 0, unknown: 2 },
        statuses: { counts: { done: 2, in_progress: 1, todo: 1 } },
        done_reasons: { counts: { completed: 1, aborted: 1, cancelled: 0 } },
      },
    });
    expect(Object.keys(data.relationships).sort()).toEqual(
      [
        'assignees',
        'contracts',
        'created_by_service_account',
        'created_by_user',
        'folder',
        'locations',
        'organisation',
        'scheme_template',
        'site_managers',
        'teams',
        'template',
        'work_orders',
      ].sort(),
    );
    expect(data.relationships.work_orders.data.map((w: { id: string }) => w.id).sort()).toEqual(
      [ids.wo1, ids.wo2].sort(),
    );
    expect(data.relationships.created_by_service_account.data.id).toBe(tenant.admin.principalId);
  });

  it('counts stay right after an operation changes and after a work order is deleted and restored', async () => {
    await api.request('PATCH', `${projects()}/operations/${ids.op4}`, {
      token,
      body: {
        data: { type: 'operations', id: ids.op4, attributes: { status: 'done', done_reason: 'cancelled' } },
      },
    });
    expect((await scheme()).body.data.meta.completeness.statuses.counts).toEqual({
      done: 3,
      in_progress: 1,
      todo: 0,
    });
    expect((await api.request('DELETE', `${projects()}/work-orders/${ids.wo2}`, { token })).status).toBe(204);
    expect((await scheme()).body.data.meta.counts.work_orders).toBe(1);
    expect((await api.get(`${projects()}/work-orders/${ids.wo2}`, token)).status).toBe(404);
    const list = await api.get(`${projects()}/work-orders?filter[scheme]=${ids.scheme}`, token);
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([ids.wo1]);
    const restored = await api.request('POST', `${projects()}/work-orders/${ids.wo2}/restore`, { token });
    expect(restored.status, restored.text).toBe(200);
    expect((await scheme()).body.data.meta.counts.work_orders).toBe(2);
  });

  it('deleting a work order takes its operations out of the scheme’s counts with it', async () => {
    await api.request('DELETE', `${projects()}/work-orders/${ids.wo1}`, { token });
    expect((await scheme()).body.data.meta.counts).toMatchObject({ work_orders: 1, operations: 0 });
    await api.request('POST', `${projects()}/work-orders/${ids.wo1}/restore`, { token });
    expect((await scheme()).body.data.meta.counts).toMatchObject({ work_orders: 2, operations: 4 });
  });

  it('an operation deleted and restored leaves and rejoins its scheme’s counts; under a deleted work order or scheme it cannot change what they count (409) until that is restored', async () => {
    const counts = async () => (await scheme()).body.data.meta.completeness.statuses.counts;
    const before = await counts();
    expect((await api.request('DELETE', `${projects()}/operations/${ids.op3}`, { token })).status).toBe(204);
    expect(await counts()).toEqual({ ...before, in_progress: before.in_progress - 1 });
    const restored = await api.request('POST', `${projects()}/operations/${ids.op3}/restore`, { token });
    expect(restored.status, restored.text).toBe(200);
    expect(await counts()).toEqual(before);

    const patch = (id: string | undefined, attributes: object) =>
      api.request('PATCH', `${projects()}/operations/${id}`, {
        token,
        body: { data: { type: 'operations', id, attributes } },
      });
    const finish = () => patch(ids.op3, { status: 'done' });
    await api.request('DELETE', `${projects()}/work-orders/${ids.wo1}`, { token });
    const hidden = await counts();
    const frozen = await finish();
    expect(frozen.status, frozen.text).toBe(409);
    expect(frozen.body.errors[0].detail).toMatch(/deleted parent must be restored/);
    expect((await api.request('DELETE', `${projects()}/operations/${ids.op3}`, { token })).status).toBe(409);
    expect(await counts()).toEqual(hidden);
    // A change that moves no count (the name) is still allowed.
    const renamed = await patch(ids.op3, { description: 'Valve chamber' });
    expect(renamed.status, renamed.text).toBe(200);

    await api.request('POST', `${projects()}/work-orders/${ids.wo1}/restore`, { token });
    expect(await counts()).toEqual(before);
    expect((await finish()).status).toBe(200);
    expect(await counts()).toEqual({ ...before, in_progress: before.in_progress - 1, done: before.done + 1 });

    await api.request('DELETE', `${projects()}/schemes/${ids.scheme}`, { token });
    expect((await patch(ids.op4, { status: 'in_progress' })).status).toBe(409);
    const orphan = await api.request('POST', `${projects()}/operations`, {
      token,
      body: {
        data: {
          type: 'operations',
          attributes: { name: 'Under a deleted scheme' },
          relationships: { work_order: one('work-orders', ids.wo1 ?? '') },
        },
      },
    });
    expect(orphan.status, orphan.text).toBe(409);
    expect((await api.request('POST', `${projects()}/schemes/${ids.scheme}/restore`, { token })).status).toBe(
      200,
    );
    expect(await counts()).toEqual({ ...before, in_progress: before.in_progress - 1, done: before.done + 1 });
  });

  it('a child needs a parent in the organisation', async () => {
    const foreign = await api.request('POST', `${projects(other.org.id)}/schemes`, {
      token: await api.token(other.admin),
      body: { data: { type: 'schemes', attributes: { name: 'Theirs' } } },
    });
    const res = await api.request('POST', `${projects()}/work-orders`, {
      token,
      body: {
        data: {
          type: 'work-orders',
          attributes: { name: 'Orphan' },
          relationships: { scheme: one('schemes', foreign.body.data.id) },
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe('/data/relationships/scheme/data');
    const missing = await api.request('POST', `${projects()}/operations`, {
      token,
      body: { data: { type: 'operations', attributes: { name: 'x' } } },
    });
    expect(missing.status).toBe(400);
  });
});

describe('restoring a deleted node is a declared transition (deleted → in_place)', () => {
  beforeEach(async () => {
    ids = await buildHierarchy();
  });
  const workOrder = () => `${projects()}/work-orders/${ids.wo2}`;
  const restore = (headers: Record<string, string> = {}, as = token, path = workOrder()) =>
    api.request('POST', `${path}/restore`, { token: as, headers });
  const remove = async () => expect((await api.request('DELETE', workOrder(), { token })).status).toBe(204);
  const refusal = ['A work order in place cannot be restored.'];

  it('a node in place reads restore refused, and restoring it is 409 STATE.001 with its state and reasons', async () => {
    const read = await api.get(workOrder(), token);
    expect(read.body.data.meta.allowed_transitions).toEqual([
      { verb: 'restore', allowed: false, reasons: refusal },
    ]);
    const refused = await restore();
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      meta: { state: 'in_place', verb: 'restore', allowed: [], reasons: refusal },
    });
    // The scheme's status is the work's own, still PATCHed freely beside the machine.
    const patched = await api.request('PATCH', workOrder(), {
      token,
      body: { data: { type: 'work-orders', id: ids.wo2, attributes: { status: 'in_progress' } } },
    });
    expect(patched.status, patched.text).toBe(200);
  });

  it('a deleted node is restored from where it was parked: one event with from and to, then refused again', async () => {
    await remove();
    expect((await api.get(workOrder(), token)).status).toBe(404);
    const restored = await restore();
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.data).toMatchObject({ type: 'work-orders', id: ids.wo2 });
    expect(restored.body.data.meta.deleted_at).toBeUndefined();
    expect(restored.body.data.meta.allowed_transitions).toEqual([
      { verb: 'restore', allowed: false, reasons: refusal },
    ]);
    const event = await latestEvent(tenant.org.id, 'work-order.restored', ids.wo2);
    expect(event.data).toMatchObject({ transition: { verb: 'restore', from: 'deleted', to: 'in_place' } });
    expect((await api.get(workOrder(), token)).status).toBe(200);
    expect((await restore()).status).toBe(409);
  });

  it('a restore under a stale If-Match (a tag from before a change) is 412 and the node stays deleted', async () => {
    const before = (await api.get(workOrder(), token)).headers.get('etag') ?? '';
    const renamed = await api.request('PATCH', workOrder(), {
      token,
      body: { data: { type: 'work-orders', id: ids.wo2, attributes: { name: 'Renamed' } } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    await remove();
    const late = await restore({ 'If-Match': before });
    expect(late.status, late.text).toBe(412);
    expect(late.body.errors[0]).toMatchObject({
      code: 'PRECONDITION.001',
      meta: { etag: renamed.headers.get('etag') },
    });
    expect((await api.get(workOrder(), token)).status).toBe(404);
    expect((await restore({ 'If-Match': renamed.headers.get('etag') ?? '' })).status).toBe(200);
  });

  it('another organisation cannot restore a deleted node: 404, and the node stays deleted', async () => {
    await remove();
    const theirs = await api.token(other.admin);
    const path = `${projects(other.org.id)}/work-orders/${ids.wo2}`;
    expect((await restore({}, theirs, path)).status).toBe(404);
    expect((await api.get(workOrder(), token)).status).toBe(404);
  });
});

describe('PUT /v3/orgs/{org_id}/projects/schemes/{scheme_id} (deprecated)', () => {
  beforeEach(async () => {
    ids = await buildHierarchy();
  });
  const put = (body: object) => api.request('PUT', `${projects()}/schemes/${ids.scheme}`, { token, body });

  it('replaces the scheme as a whole and says it is deprecated, naming its successor', async () => {
    const res = await put({
      data: { type: 'schemes', id: ids.scheme, attributes: { name: 'Trunk main renewal phase 2' } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(res.headers.get('link')).toContain('rel="successor-version"');
    expect(res.body.jsonapi).toEqual({ version: '1.1' });
    expect(res.body.data.attributes).toEqual({ name: 'Trunk main renewal phase 2', status: 'in_planning' });
    expect(res.body.data.meta.counts.work_orders).toBe(2);
  });

  it('a body whose id differs from the path, or whose type is not schemes, is 400', async () => {
    expect((await put({ data: { type: 'schemes', id: ids.wo1, attributes: { name: 'x' } } })).status).toBe(
      400,
    );
    expect(
      (await put({ data: { type: 'work-orders', id: ids.scheme, attributes: { name: 'x' } } })).status,
    ).toBe(400);
  });

  it('PATCH, the successor, changes only what it is sent', async () => {
    const res = await api.request('PATCH', `${projects()}/schemes/${ids.scheme}`, {
      token,
      body: { data: { type: 'schemes', id: ids.scheme, attributes: { code: 'TMR-02' } } },
    });
    expect(res.body.data.attributes).toMatchObject({ name: 'Trunk main renewal', code: 'TMR-02' });
    expect(res.body.data.attributes.description).toBe('Replace 4 km of 450 mm main');
  });
});

describe('vehicles can now be allocated to schemes and work orders', () => {
  beforeEach(async () => {
    ids = await buildHierarchy();
  });

  it('PATCH …/relationships/allocated_scheme accepts a scheme of the organisation', async () => {
    const vehicle = await api.request('POST', `/v3/orgs/${tenant.org.id}/assets/vehicles`, {
      token,
      body: { data: { type: 'vehicles', attributes: { registration: 'PR01 JCT' } } },
    });
    const res = await api.request(
      'PATCH',
      `/v3/vehicles/${vehicle.body.data.id}/relationships/allocated_scheme`,
      {
        token,
        body: { data: { type: 'schemes', id: ids.scheme } },
      },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta.message).toBe('vehicle allocation updated');
  });
});

describe('search across schemes, work orders and operations', () => {
  // An organisation of its own: the answers are exactly its one hierarchy.
  let searched: string;
  let searchToken: string;
  beforeAll(async () => {
    const own = await newTenant('Projects Search', 1);
    searchToken = await api.token(own.admin);
    searched = `${projects(own.org.id)}/search`;
    await buildHierarchy(own.org.id, searchToken, own.people[0]?.id ?? '');
  });

  it('finds by name or code prefix, case-insensitively, as one paginated collection', async () => {
    const res = await api.get(`${searched}?filter[prefix]=op&sort=name`, searchToken);
    expect(res.status, res.text).toBe(200);
    expect(
      res.body.data.map((r: { type: string; attributes: { name: string } }) => [r.type, r.attributes.name]),
    ).toEqual([
      ['operations', 'Op 1'],
      ['operations', 'Op 2'],
      ['operations', 'Op 3'],
      ['operations', 'Op 4'],
    ]);
    const byCode = await api.get(`${searched}?filter[prefix]=TMR`, searchToken);
    expect(byCode.body.data.map((r: { type: string }) => r.type)).toEqual(['schemes']);
    const mixed = await api.get(`${searched}?filter[prefix]=se&limit=1`, searchToken);
    expect(mixed.body.meta.pagination.counts.resources).toBe(2);
    const typed = await api.get(`${searched}?filter[prefix]=trunk&filter[type]=work-orders`, searchToken);
    expect(typed.body.data).toEqual([]);
  });

  it('a prefix under two characters, or an unknown type, is 400', async () => {
    expect((await api.get(`${searched}?filter[prefix]=t`, searchToken)).status).toBe(400);
    expect((await api.get(searched, searchToken)).status).toBe(400);
    expect((await api.get(`${searched}?filter[prefix]=tr&filter[type]=vehicles`, searchToken)).status).toBe(
      400,
    );
  });

  it('a prefix longer than an index key (1,024 bytes) is 400, not a DynamoDB failure (issue 15)', async () => {
    const at = (prefix: string) =>
      api.get(`${projects()}/search?filter[prefix]=${encodeURIComponent(prefix)}`, token);
    expect((await at('o'.repeat(1024))).status).toBe(200);
    for (const prefix of ['o'.repeat(1025), '€'.repeat(342), 'o'.repeat(4096)]) {
      const res = await at(prefix);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].detail).toMatch(/key/);
    }
  });
});
