/**
 * Action types (issue 45, item 1): an organisation's kinds of action, with custom fields as a JSON Schema
 * of one flat object (checked against that subset on every write: a 400 at the part that is wrong), a
 * default priority and due period (ISO 8601), per-move parties and evidence, and whether completion needs
 * verification. A type stays while actions use it (409). Another organisation's type is as unknown as a
 * random id (404), and nothing of it is listed.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: string;
let viewer: string;
let outsider: string;

const types = (orgId = tenant.org.id) => `/v3/orgs/${orgId}/action-types`;
const createType = (attributes: object, token = admin, orgId = tenant.org.id) =>
  api.request('POST', types(orgId), { token, body: { data: { type: 'action-types', attributes } } });
const createAction = (typeId: string, attributes: object = {}) =>
  api.request('POST', `/v3/orgs/${tenant.org.id}/actions`, {
    token: admin,
    body: {
      data: {
        type: 'actions',
        attributes: { title: 'Fix the gate', ...attributes },
        relationships: { action_type: { data: { type: 'action-types', id: typeId } } },
      },
    },
  });

const DEFECT = {
  name: 'Defect repair',
  custom_fields: {
    type: 'object',
    properties: {
      depth_mm: { type: 'integer', title: 'Depth (mm)', minimum: 0 },
      surface: { type: 'string', enum: ['asphalt', 'concrete'] },
    },
    required: ['depth_mm'],
  },
  default_priority: 'high',
  due_period: 'P7D',
  moves: { complete: { evidence: ['comment'] }, verify: { parties: ['managers'] } },
  verification_required: true,
};

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Action Types Org', 1), newTenant('Action Types Other', 1)]);
  [admin, viewer, outsider] = await Promise.all([
    api.token(tenant.admin),
    api.token(tenant.viewer),
    api.token(other.admin),
  ]);
});

afterAll(() => api.close());

describe('action types', () => {
  it('a type is created with its custom fields, defaults, moves and verification, and read back as written', async () => {
    const created = await createType(DEFECT);
    expect(created.status, created.text).toBe(201);
    const read = await api.get(`/v3/action-types/${created.body.data.id}`, viewer);
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.attributes).toMatchObject(DEFECT);
    expect(read.body.data.meta.actions).toBe(0);
  });

  it('custom fields must be the flat JSON Schema subset: a 400 pointing at the part that is wrong', async () => {
    const cases: [object, string][] = [
      [
        { type: 'object', properties: { depth: { type: 'objekt' } } },
        '/data/attributes/custom_fields/properties/depth/type',
      ],
      [
        { type: 'object', properties: { 'Bad Name': { type: 'string' } } },
        '/data/attributes/custom_fields/properties/Bad Name',
      ],
      [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] },
        '/data/attributes/custom_fields/required/0',
      ],
      [{ type: 'array' }, '/data/attributes/custom_fields/type'],
    ];
    for (const [custom_fields, pointer] of cases) {
      const refused = await createType({ name: 'Bad', custom_fields });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.errors.map((e: { source?: { pointer: string } }) => e.source?.pointer)).toContain(
        pointer,
      );
    }
  });

  it('a due period is an ISO 8601 duration of weeks, days or hours; a priority one of the five', async () => {
    for (const attributes of [
      { due_period: 'P1M' },
      { due_period: '7 days' },
      { default_priority: 'urgent' },
    ]) {
      const refused = await createType({ name: 'Bad', ...attributes });
      expect(refused.status, refused.text).toBe(400);
    }
    const hours = await createType({ name: 'Urgent fix', due_period: 'PT4H', default_priority: 'critical' });
    expect(hours.status, hours.text).toBe(201);
  });

  it('a type stays while actions use it: DELETE is 409 until they are gone, then 204', async () => {
    const type = (await createType({ name: 'Temporary' })).body.data.id as string;
    const action = await createAction(type);
    expect(action.status, action.text).toBe(201);
    const inUse = await api.request('DELETE', `/v3/action-types/${type}`, { token: admin });
    expect(inUse.status, inUse.text).toBe(409);
    expect(inUse.body.errors[0].detail).toContain('1 action(s)');
    const counted = await api.get(`/v3/action-types/${type}`, admin);
    expect(counted.body.data.meta.actions).toBe(1);
    const gone = await api.request('DELETE', `/v3/actions/${action.body.data.id}`, { token: admin });
    expect(gone.status, gone.text).toBe(204);
    const deleted = await api.request('DELETE', `/v3/action-types/${type}`, { token: admin });
    expect(deleted.status, deleted.text).toBe(204);
  });

  it('action-types:manage is needed to write them: a viewer is 403', async () => {
    const refused = await createType({ name: 'By a viewer' }, viewer);
    expect(refused.status, refused.text).toBe(403);
  });
});

describe('tenant isolation of action types', () => {
  it('another organisation’s type is 404 on every route, as a random id is, and never listed', async () => {
    const mine = (await createType({ name: 'Mine only' })).body.data.id as string;
    for (const id of [mine, randomUUID()]) {
      const read = await api.get(`/v3/action-types/${id}`, outsider);
      expect(read.status, read.text).toBe(404);
      const patch = await api.request('PATCH', `/v3/action-types/${id}`, {
        token: outsider,
        body: { data: { type: 'action-types', id, attributes: { name: 'Taken' } } },
      });
      expect(patch.status, patch.text).toBe(404);
      const remove = await api.request('DELETE', `/v3/action-types/${id}`, { token: outsider });
      expect(remove.status, remove.text).toBe(404);
    }
    const listed = await api.get(types(other.org.id), outsider);
    expect(listed.body.data.map((t: { id: string }) => t.id)).not.toContain(mine);
    const theirs = await api.get(types(), outsider);
    expect(theirs.status).toBe(404);
    const still = await api.get(`/v3/action-types/${mine}`, admin);
    expect(still.body.data.attributes.name).toBe('Mine only');
  });
});
