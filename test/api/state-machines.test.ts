/**
 * Declared state machines (issue 41, item 1), proven on qualification awards: what a client reads of the
 * moves open to it (`meta.allowed_transitions`, with the reasons a move is not), the typed 409 of a refused
 * move, the event each move emits (with `from` and `to`), the PATCH that may not name the state, and
 * `If-Match` on a transition.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '#shared/auth/sessions';
import { createUser, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { latestEvent } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
let viewer: string;
let approver: { id: string; headers: Record<string, string> };
let type: string;
let evidenceType: string;

const post = (path: string, body: object, token = admin) => api.request('POST', path, { token, body });

const award = async (person: string, qualificationType = type) => {
  const res = await post(`/v3/orgs/${tenant.org.id}/qualifications/awards`, {
    data: {
      type: 'qualification-awards',
      attributes: { issued_at: '2026-01-05' },
      relationships: {
        person: { data: { type: 'users', id: person } },
        qualification_type: { data: { type: 'qualification-types', id: qualificationType } },
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};

const newType = async (name: string, evidence_required: boolean) => {
  const res = await post(`/v3/orgs/${tenant.org.id}/qualifications/types`, {
    data: {
      type: 'qualification-types',
      attributes: { kind: 'training', name, has_expiry: false, evidence_required },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};

type Allowed = { verb: string; allowed: boolean; reasons: string[] };
const byVerb = (body: { data: { meta: { allowed_transitions: Allowed[] } } }): Record<string, Allowed> =>
  Object.fromEntries(body.data.meta.allowed_transitions.map((t) => [t.verb, t]));

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('State Machines Org', 2);
  [admin, viewer] = await Promise.all([api.token(tenant.admin), api.token(tenant.viewer)]);
  const role = await post(`/v3/orgs/${tenant.org.id}/iam/roles`, {
    data: {
      type: 'roles',
      attributes: {
        name: 'Approver',
        permissions: ['qualifications:view', 'qualifications:manage', 'qualifications:approve'],
      },
    },
  });
  expect(role.status, role.text).toBe(201);
  const user = await createUser(tenant.org.id, {
    email: 'approver@machines.example',
    first_name: 'A',
    last_name: 'P',
  });
  await grantRole(tenant.org.id, role.body.data.id, 'user', user.id);
  approver = { id: user.id, headers: { 'x-session-token': (await startSession(user.id)).token } };
  [type, evidenceType] = await Promise.all([
    newType('Machines training', false),
    newType('Machines card', true),
  ]);
});

afterAll(async () => {
  await api?.close();
});

describe('allowed_transitions: what the caller may do next, and why not', () => {
  it('a pending award as an approver: approve and reject allowed; revoke refused by its state', async () => {
    const id = await award(tenant.people[0]?.id ?? '');
    const res = await api.request('GET', `/v3/qualification-awards/${id}`, { headers: approver.headers });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.meta.allowed_transitions).toEqual([
      { verb: 'approve', allowed: true, reasons: [] },
      { verb: 'reject', allowed: true, reasons: [] },
      { verb: 'revoke', allowed: false, reasons: ['An award pending approval cannot be revoked.'] },
    ]);
  });

  it('four eyes is a reason: the award’s own person sees approve and reject refused', async () => {
    const id = await award(approver.id);
    const res = await api.request('GET', `/v3/qualification-awards/${id}`, { headers: approver.headers });
    const verbs = byVerb(res.body);
    expect(verbs.approve).toEqual({
      verb: 'approve',
      allowed: false,
      reasons: ['Nobody approves their own award: another holder of qualifications:approve decides it.'],
    });
    expect(verbs.reject?.reasons).toEqual([
      'Nobody rejects their own award: another holder of qualifications:approve decides it.',
    ]);
  });

  it('a viewer sees every move refused for want of its permission', async () => {
    const id = await award(tenant.people[0]?.id ?? '');
    const verbs = byVerb((await api.get(`/v3/qualification-awards/${id}`, viewer)).body);
    expect(verbs.approve?.reasons).toEqual(['Needs the qualifications:approve permission.']);
    expect(verbs.revoke?.reasons).toEqual([
      'Needs the qualifications:manage permission.',
      'An award pending approval cannot be revoked.',
    ]);
  });

  it('a guard is a reason: an award whose type requires evidence cannot be approved without it', async () => {
    const id = await award(tenant.people[1]?.id ?? '', evidenceType);
    const verbs = byVerb(
      (await api.request('GET', `/v3/qualification-awards/${id}`, { headers: approver.headers })).body,
    );
    expect(verbs.approve).toMatchObject({
      allowed: false,
      reasons: [expect.stringMatching(/requires evidence/)],
    });
    expect(verbs.reject).toMatchObject({ allowed: true });
  });
});

describe('a refused move is a typed 409; a move is one event with from and to', () => {
  it('approving a rejected award is 409 STATE.001 with the state, the verb, the verbs open and the reasons', async () => {
    const id = await award(tenant.people[0]?.id ?? '');
    const rejected = await api.request('POST', `/v3/qualification-awards/${id}/reject`, { token: admin });
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body.data.meta.allowed_transitions).toBeDefined();
    const refused = await api.request('POST', `/v3/qualification-awards/${id}/approve`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      detail: 'An award rejected cannot be approved.',
      meta: {
        state: 'rejected',
        verb: 'approve',
        allowed: [],
        reasons: ['An award rejected cannot be approved.'],
      },
    });
  });

  it('the guard refuses with 409 STATE.001 and its reason; nothing is written', async () => {
    const id = await award(tenant.people[1]?.id ?? '', evidenceType);
    const refused = await api.request('POST', `/v3/qualification-awards/${id}/approve`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      meta: { state: 'pending_approval', verb: 'approve', allowed: ['reject'] },
    });
    expect((await api.get(`/v3/qualification-awards/${id}`, viewer)).body.data.attributes.status).toBe(
      'pending_approval',
    );
  });

  it('approve emits qualification-award.approved carrying the move: verb, from and to', async () => {
    const id = await award(tenant.people[0]?.id ?? '');
    expect(
      (await api.request('POST', `/v3/qualification-awards/${id}/approve`, { token: admin })).status,
    ).toBe(200);
    const event = await latestEvent(tenant.org.id, 'qualification-award.approved', id);
    expect(event.data).toMatchObject({
      attributes: { status: 'valid' },
      transition: { verb: 'approve', from: 'pending_approval', to: 'valid' },
    });
  });
});

describe('the state is moved only by transitions', () => {
  it('a PATCH naming status is 400 at /data/attributes/status, naming the transitions', async () => {
    const id = await award(tenant.people[0]?.id ?? '');
    const res = await api.request('PATCH', `/v3/qualification-awards/${id}`, {
      token: admin,
      body: { data: { type: 'qualification-awards', id, attributes: { status: 'valid' } } },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/status');
    expect(res.body.errors[0].detail).toMatch(/…\/approve.*…\/reject.*…\/revoke/);
  });

  it('If-Match on a transition: stale is 412 PRECONDITION.001 and nothing is written; current moves it', async () => {
    const id = await award(tenant.people[0]?.id ?? '');
    const read = await api.get(`/v3/qualification-awards/${id}`, viewer);
    const stale = read.headers.get('etag') ?? '';
    const notes = await api.request('PATCH', `/v3/qualification-awards/${id}`, {
      token: admin,
      body: { data: { type: 'qualification-awards', id, attributes: { notes: 'moved on' } } },
    });
    expect(notes.status, notes.text).toBe(200);
    const refused = await api.request('POST', `/v3/qualification-awards/${id}/approve`, {
      token: admin,
      headers: { 'If-Match': stale },
    });
    expect(refused.status, refused.text).toBe(412);
    expect(refused.body.errors[0].code).toBe('PRECONDITION.001');
    const after = await api.get(`/v3/qualification-awards/${id}`, viewer);
    expect(after.body.data.attributes.status).toBe('pending_approval');
    const moved = await api.request('POST', `/v3/qualification-awards/${id}/approve`, {
      token: admin,
      headers: { 'If-Match': after.headers.get('etag') ?? '' },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data.attributes.status).toBe('valid');
  });
});
