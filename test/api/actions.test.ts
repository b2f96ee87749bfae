/**
 * Actions (issue 45): created with their type's defaults and custom fields checked against its schema;
 * moved through the declared state machine (409 naming the moves open now, evidence the type requires,
 * four eyes on verification); claimed by one member of the assigned team at a time; idempotent producers;
 * `If-Match` on moves; the parties (assignee, claimant, team members, watchers) reading and moving an
 * action with `actions:self` alone; tenant isolation on every route; indexed filters; one event per move.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '#shared/auth/sessions';
import { createUser, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents, latestEvent } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: string;
let outsider: string;
/** Session headers of users holding only `actions:self` (a custom role), and of a manager. */
let assigneeUser: { id: string; headers: Record<string, string> };
let teamMates: { id: string; headers: Record<string, string> }[];
let stranger: { id: string; headers: Record<string, string> };
let manager: { id: string; headers: Record<string, string> };
let team: string;
let foreignTeam: string;
let plainType: string;
let gatedType: string;

const orgPath = (orgId = tenant.org.id) => `/v3/orgs/${orgId}`;
const one = (type: string, id: string) => ({ data: { type, id } });
type Credentials = { token: string } | { headers: Record<string, string> };
const as = (who: string | { headers: Record<string, string> }): Credentials =>
  typeof who === 'string' ? { token: who } : { headers: who.headers };

const newAction = (
  type: string,
  attributes: object = {},
  relationships: object = {},
  who: string | { headers: Record<string, string> } = admin,
) =>
  api.request('POST', `${orgPath()}/actions`, {
    ...as(who),
    body: {
      data: {
        type: 'actions',
        attributes: { title: 'Replace the cracked kerb stone', ...attributes },
        relationships: { action_type: one('action-types', type), ...relationships },
      },
    },
  });
const created = async (type: string, attributes: object = {}, relationships: object = {}) => {
  const res = await newAction(type, attributes, relationships);
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const move = (
  id: string,
  verb: string,
  who: string | { headers: Record<string, string> } = admin,
  body?: object,
  headers: Record<string, string> = {},
) => {
  const credentials = as(who);
  return api.request('POST', `/v3/actions/${id}/${verb}`, {
    ...credentials,
    ...('headers' in credentials
      ? { headers: { ...credentials.headers, ...headers } }
      : Object.keys(headers).length > 0 && { headers }),
    ...(body && { body }),
  });
};
const reason = (text: string) => ({ data: { type: 'actions', attributes: { reason: text } } });
const read = (id: string, who: string | { headers: Record<string, string> } = admin) =>
  api.request('GET', `/v3/actions/${id}`, as(who));
const allowed = (
  doc: { data: { meta: { allowed_transitions: { verb: string; allowed: boolean; reasons: string[] }[] } } },
  verb: string,
) => doc.data.meta.allowed_transitions.find((t) => t.verb === verb);

const sessionUser = async (orgId: string, email: string, role: string) => {
  const user = await createUser(orgId, { email, first_name: 'Act', last_name: email.split('@')[0] ?? 'x' });
  await grantRole(orgId, role, 'user', user.id);
  return { id: user.id, headers: { 'x-session-token': (await startSession(user.id)).token } };
};

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Actions Org', 1), newTenant('Actions Other', 1)]);
  [admin, outsider] = await Promise.all([api.token(tenant.admin), api.token(other.admin)]);
  const role = async (name: string, permissions: string[]) => {
    const res = await api.request('POST', `${orgPath()}/iam/roles`, {
      token: admin,
      body: { data: { type: 'roles', attributes: { name, permissions } } },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const [party, managing] = await Promise.all([
    role('Action party', ['actions:self']),
    role('Action manager', ['actions:view', 'actions:manage']),
  ]);
  const slug = tenant.org.id.slice(-8);
  [assigneeUser, stranger, manager, ...teamMates] = await Promise.all([
    sessionUser(tenant.org.id, `assignee@${slug}.example`, party),
    sessionUser(tenant.org.id, `stranger@${slug}.example`, party),
    sessionUser(tenant.org.id, `manager@${slug}.example`, managing),
    sessionUser(tenant.org.id, `mate1@${slug}.example`, party),
    sessionUser(tenant.org.id, `mate2@${slug}.example`, party),
  ]);
  const newTeam = async (orgId: string, token: string, members: string[]) => {
    const res = await api.request('POST', `${orgPath(orgId)}/people/teams`, {
      token,
      body: {
        data: {
          type: 'teams',
          attributes: { name: `Crew ${randomUUID().slice(0, 6)}`, description: 'Made by a test.' },
          relationships: { members: { data: members.map((id) => ({ type: 'users', id })) } },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  [team, foreignTeam] = await Promise.all([
    newTeam(
      tenant.org.id,
      admin,
      teamMates.map((m) => m.id),
    ),
    newTeam(other.org.id, outsider, [other.people[0]?.id ?? '']),
  ]);
  // Teams reach the principal's projection at creation; new sessions read it.
  for (const mate of teamMates) mate.headers = { 'x-session-token': (await startSession(mate.id)).token };
  const type = async (attributes: object) => {
    const res = await api.request('POST', `${orgPath()}/action-types`, {
      token: admin,
      body: { data: { type: 'action-types', attributes } },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  [plainType, gatedType] = await Promise.all([
    type({
      name: 'Defect repair',
      custom_fields: {
        type: 'object',
        properties: {
          depth_mm: { type: 'integer', minimum: 0 },
          surface: { type: 'string', enum: ['asphalt', 'concrete'] },
        },
      },
      default_priority: 'high',
      due_period: 'P2D',
    }),
    type({
      name: 'Guard rail',
      moves: { 'request-verification': { evidence: ['comment'] }, complete: { evidence: ['comment'] } },
      verification_required: true,
    }),
  ]);
});

afterAll(() => api.close());

describe('creating actions', () => {
  it('an action starts open with its type’s priority and a due time after its due period', async () => {
    const before = Date.now();
    const res = await newAction(plainType, { custom_fields: { depth_mm: 40 } });
    expect(res.status, res.text).toBe(201);
    const { attributes, meta } = res.body.data;
    expect(attributes).toMatchObject({
      status: 'open',
      priority: 'high',
      producer: { kind: 'manual', key: null },
    });
    const due = Date.parse(attributes.due_at);
    expect(due).toBeGreaterThanOrEqual(before + 2 * 86_400_000 - 1000);
    expect(due).toBeLessThanOrEqual(Date.now() + 2 * 86_400_000);
    expect(meta.overdue).toBe(false);
    expect(meta.version).toBe(1);
    expect(allowed(res.body, 'start')?.allowed).toBe(true);
  });

  it('custom field values are checked against the type’s schema: 400 with a pointer at each value refused, nothing written', async () => {
    const res = await newAction(plainType, {
      title: 'Bad values',
      custom_fields: { depth_mm: -3, surface: 'gravel', colour: 'red' },
    });
    expect(res.status, res.text).toBe(400);
    const pointers = res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort();
    expect(pointers).toEqual([
      '/data/attributes/custom_fields/colour',
      '/data/attributes/custom_fields/depth_mm',
      '/data/attributes/custom_fields/surface',
    ]);
    const listed = await api.get(`${orgPath()}/actions?filter[status]=open&page[limit]=100`, admin);
    expect(listed.body.data.map((a: { attributes: { title: string } }) => a.attributes.title)).not.toContain(
      'Bad values',
    );
  });

  it('a team or user of another organisation as assignee is refused as an unknown one, with nothing written', async () => {
    const count = async () => (await api.get(`/v3/action-types/${plainType}`, admin)).body.data.meta.actions;
    const was = await count();
    for (const assignee of [
      one('teams', foreignTeam),
      one('users', other.people[0]?.id ?? ''),
      one('teams', randomUUID()),
    ]) {
      const res = await newAction(plainType, { title: 'Foreign assignee' }, { assignee });
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors[0].source).toEqual({ pointer: '/data/relationships/assignee/data' });
    }
    expect(await count()).toBe(was);
    const reassigned = await move(await created(plainType), 'reassign', admin, {
      data: { type: 'actions', relationships: { assignee: one('teams', foreignTeam) } },
    });
    expect(reassigned.status, reassigned.text).toBe(400);
  });
});

describe('overdue', () => {
  it('an action past its due time and still to be done is meta.overdue; once cancelled it is not', async () => {
    const id = await created(plainType, { due_at: new Date(Date.now() - 3_600_000).toISOString() });
    expect((await read(id)).body.data.meta.overdue).toBe(true);
    const cancelled = await move(id, 'cancel', admin, reason('Not needed.'));
    expect(cancelled.body.data.meta.overdue).toBe(false);
  });
});

describe('idempotent producers', () => {
  it('a producer key repeated concurrently makes one action: each answer is that action, the repeats 200 with meta.deduplicated', async () => {
    const key = `award-expiry:${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => newAction(plainType, { producer: { kind: 'qualification', key } })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, answers.map((a) => a.text).join('\n')).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    for (const answer of answers.filter((a) => a.status === 200))
      expect(answer.body.meta).toEqual({ deduplicated: true });
    expect(answers[0]?.body.data.meta.produced_by).toEqual({ kind: 'qualification', key });
    const again = await newAction(plainType, { producer: { kind: 'qualification', key } });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(answers[0]?.body.data.id);
  });
});

describe('the state machine', () => {
  it('a move the machine refuses is 409 STATE.001 naming the moves open now', async () => {
    const id = await created(plainType);
    const res = await move(id, 'verify');
    expect(res.status, res.text).toBe(409);
    expect(res.body.errors[0]).toMatchObject({ code: 'STATE.001', meta: { state: 'open', verb: 'verify' } });
    expect(res.body.errors[0].meta.allowed).toEqual(expect.arrayContaining(['start', 'cant-do', 'cancel']));
    expect(res.body.errors[0].meta.allowed).not.toContain('verify');
  });

  it('completion without the evidence the type requires is 409 saying what is missing, as allowed_transitions does; a comment opens it', async () => {
    const id = await created(gatedType);
    expect((await move(id, 'start')).status).toBe(200);
    const refused = await move(id, 'request-verification');
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.errors[0].meta.reasons).toEqual([
      'This action type requires a comment on the action as evidence to complete it.',
    ]);
    const complete = await move(id, 'complete');
    expect(complete.body.errors[0].meta.reasons).toContain(
      'This action type requires verification: request-verification instead.',
    );
    const seen = allowed((await read(id)).body, 'request-verification');
    expect(seen).toMatchObject({ allowed: false, reasons: refused.body.errors[0].meta.reasons });
    const comment = await api.request('POST', `${orgPath()}/comments`, {
      token: admin,
      body: {
        data: {
          type: 'comments',
          attributes: { body: 'New rail bolted.', subject: { type: 'actions', id } },
        },
      },
    });
    expect(comment.status, comment.text).toBe(201);
    expect(allowed((await read(id)).body, 'request-verification')?.allowed).toBe(true);
    const requested = await move(id, 'request-verification');
    expect(requested.status, requested.text).toBe(200);
    expect(requested.body.data.attributes.status).toBe('awaiting_verification');
    expect(requested.body.data.meta.version).toBe(3);
  });

  it('whoever completed an action cannot verify it (409); someone else does, and it is done', async () => {
    const id = await created(gatedType, {}, { assignee: one('users', manager.id) });
    await api.request('POST', `${orgPath()}/comments`, {
      token: admin,
      body: { data: { type: 'comments', attributes: { body: 'Done.', subject: { type: 'actions', id } } } },
    });
    expect((await move(id, 'start', manager)).status).toBe(200);
    const requested = await move(id, 'request-verification', manager);
    expect(requested.status, requested.text).toBe(200);
    expect(requested.body.data.relationships.completed_by.data).toEqual({ type: 'users', id: manager.id });
    const own = await move(id, 'verify', manager);
    expect(own.status, own.text).toBe(409);
    expect(own.body.errors[0].meta.reasons).toEqual([
      'Whoever completed the action cannot verify it: someone else verifies it.',
    ]);
    const verified = await move(id, 'verify', admin);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.data.attributes.status).toBe('done');
  });

  it('cant-do, cancel and reopen take a reason (400 without one); reopen brings it back open', async () => {
    const id = await created(plainType);
    const bare = await move(id, 'cant-do');
    expect(bare.status, bare.text).toBe(400);
    const cant = await move(id, 'cant-do', admin, reason('The site is closed.'));
    expect(cant.status, cant.text).toBe(200);
    expect(cant.body.data.attributes).toMatchObject({ status: 'cant_do', reason: 'The site is closed.' });
    const reopened = await move(id, 'reopen', admin, reason('It reopened.'));
    expect(reopened.body.data.attributes).toMatchObject({ status: 'open', reason: 'It reopened.' });
    const cancelled = await move(id, 'cancel', admin, reason('Raised twice.'));
    expect(cancelled.body.data.attributes.status).toBe('cancelled');
  });

  it('a stale If-Match on a move is 412 and nothing moves', async () => {
    const id = await created(plainType);
    const etag = (await read(id)).headers.get('etag') ?? '';
    expect((await move(id, 'start', admin, undefined, { 'If-Match': etag })).status).toBe(200);
    const stale = await move(id, 'block', admin, undefined, { 'If-Match': etag });
    expect(stale.status, stale.text).toBe(412);
    expect(stale.body.errors[0].code).toBe('PRECONDITION.001');
    expect((await read(id)).body.data.attributes.status).toBe('in_progress');
  });
});

describe('teams: claim, release, reassign', () => {
  it('two members claiming at once: one wins, the other is 409; the status is kept; release lets the other claim', async () => {
    const id = await created(plainType, {}, { assignee: one('teams', team) });
    const [a, b] = await Promise.all(teamMates.map((mate) => move(id, 'claim', mate)));
    expect([a?.status, b?.status].sort(), `${a?.text}\n${b?.text}`).toEqual([200, 409]);
    const winner = a?.status === 200 ? 0 : 1;
    const current = await read(id);
    expect(current.body.data.attributes.status).toBe('open');
    expect(current.body.data.relationships.claimed_by.data.id).toBe(teamMates[winner]?.id);
    const claimed = await latestEvent(tenant.org.id, 'action.claimed', id);
    expect(claimed.data).toBeDefined();
    const loser = teamMates[1 - winner];
    if (!loser) throw new Error('two team mates');
    expect((await move(id, 'release', loser)).status).toBe(403);
    expect((await move(id, 'release', teamMates[winner] ?? loser)).status).toBe(200);
    expect((await move(id, 'claim', loser)).status).toBe(200);
    const reassigned = await move(id, 'reassign', admin, {
      data: { type: 'actions', relationships: { assignee: one('users', assigneeUser.id) } },
    });
    expect(reassigned.status, reassigned.text).toBe(200);
    expect(reassigned.body.data.relationships.claimed_by.data).toBeNull();
    expect((await latestEvent(tenant.org.id, 'action.assigned', id)).data).toBeDefined();
  });
});

describe('parties: the assignee, claimant, team members and watchers without actions:view', () => {
  it('the assignee reads the action and makes the assignee’s moves with actions:self alone; someone else with it is 404 and 403', async () => {
    const id = await created(plainType, {}, { assignee: one('users', assigneeUser.id) });
    const mine = await read(id, assigneeUser);
    expect(mine.status, mine.text).toBe(200);
    expect(allowed(mine.body, 'start')?.allowed).toBe(true);
    expect(allowed(mine.body, 'cancel')?.allowed).toBe(false);
    expect((await move(id, 'start', assigneeUser)).status).toBe(200);
    expect((await read(id, stranger)).status).toBe(404);
    const refused = await move(id, 'block', stranger);
    expect(refused.status, refused.text).toBe(403);
    expect((await move(id, 'cancel', assigneeUser, reason('Not mine.'))).status).toBe(403);
    // Without actions:view the collection stays closed to them.
    expect((await api.request('GET', `${orgPath()}/actions`, as(assigneeUser))).status).toBe(403);
  });

  it('members of the assigned team and watchers read it too', async () => {
    const id = await created(
      plainType,
      {},
      {
        assignee: one('teams', team),
        watchers: { data: [{ type: 'users', id: stranger.id }] },
      },
    );
    for (const who of [...teamMates, stranger]) expect((await read(id, who)).status).toBe(200);
    expect((await read(id, assigneeUser)).status).toBe(404);
  });
});

describe('tenant isolation of actions', () => {
  it('another organisation’s action is 404 on every route, as a random id is; its list shows none of them', async () => {
    const id = await created(plainType);
    const verbs = [
      'start',
      'block',
      'unblock',
      'complete',
      'request-verification',
      'verify',
      'send-back',
      'cant-do',
      'cancel',
      'reopen',
      'claim',
      'release',
      'reassign',
    ];
    for (const target of [id, randomUUID()]) {
      expect((await read(target, outsider)).status).toBe(404);
      const patch = await api.request('PATCH', `/v3/actions/${target}`, {
        token: outsider,
        body: { data: { type: 'actions', id: target, attributes: { title: 'Taken' } } },
      });
      expect(patch.status, patch.text).toBe(404);
      expect((await api.request('DELETE', `/v3/actions/${target}`, { token: outsider })).status).toBe(404);
      for (const verb of verbs) {
        const res = await move(target, verb, outsider, verb === 'reassign' ? undefined : reason('x'));
        expect(res.status, `${verb}: ${res.text}`).toBe(404);
      }
    }
    expect((await api.get(`${orgPath()}/actions`, outsider)).status).toBe(404);
    const theirs = await api.get(`${orgPath(other.org.id)}/actions?page[limit]=100`, outsider);
    expect(theirs.body.data.map((a: { id: string }) => a.id)).not.toContain(id);
    expect((await read(id)).body.data.attributes.status).toBe('open');
  });
});

describe('the collection', () => {
  it('filters by status, assignee and subject read their indexes; due_at sorts', async () => {
    const location = await api.request('POST', `${orgPath()}/places/locations`, {
      token: admin,
      body: { data: { type: 'locations', attributes: { name: `Depot ${randomUUID().slice(0, 6)}` } } },
    });
    const subject = location.status === 201 ? location.body.data.id : undefined;
    const mine = await created(
      plainType,
      { due_at: '2030-01-02T00:00:00Z' },
      {
        assignee: one('users', assigneeUser.id),
        ...(subject && { subject: one('locations', subject) }),
      },
    );
    const byAssignee = await api.get(
      `${orgPath()}/actions?filter[assignee]=users:${assigneeUser.id}&page[limit]=100`,
      admin,
    );
    expect(byAssignee.status, byAssignee.text).toBe(200);
    expect(byAssignee.body.data.map((a: { id: string }) => a.id)).toContain(mine);
    for (const action of byAssignee.body.data)
      expect(action.relationships.assignee.data).toEqual({ type: 'users', id: assigneeUser.id });
    if (subject) {
      const bySubject = await api.get(
        `${orgPath()}/actions?filter[subject]=locations:${subject}&include=subject,action_type`,
        admin,
      );
      expect(bySubject.body.data.map((a: { id: string }) => a.id)).toEqual([mine]);
      expect(bySubject.body.included.map((r: { type: string }) => r.type).sort()).toEqual([
        'action-types',
        'locations',
      ]);
    }
    const open = await api.get(`${orgPath()}/actions?filter[status]=open&sort=due_at&page[limit]=100`, admin);
    expect(open.status, open.text).toBe(200);
    const dues = open.body.data
      .map((a: { attributes: { due_at: string | null } }) => a.attributes.due_at)
      .filter(Boolean);
    expect(dues).toEqual([...dues].sort());
    for (const action of open.body.data) expect(action.attributes.status).toBe('open');
  });
});

describe('notifications by default rules', () => {
  it('the assigned user is told of an action raised for them and of one reassigned to them; holding only actions:self, in the generic words', async () => {
    await deliverEvents(tenant.org.id);
    const raised = await created(
      plainType,
      { title: 'Raised for the assignee' },
      { assignee: one('users', assigneeUser.id) },
    );
    const moved = await created(plainType, { title: 'Reassigned to the assignee' });
    expect(
      (
        await move(moved, 'reassign', admin, {
          data: { type: 'actions', relationships: { assignee: one('users', assigneeUser.id) } },
        })
      ).status,
    ).toBe(200);
    await deliverEvents(tenant.org.id);
    const inbox = await api.request('GET', '/v3/notifications?page[limit]=100', as(assigneeUser));
    expect(inbox.status, inbox.text).toBe(200);
    const titles = inbox.body.data.map(
      (n: { attributes: { title: string; body: string } }) => `${n.attributes.title}: ${n.attributes.body}`,
    );
    expect(titles).toEqual(
      expect.arrayContaining([
        'Action raised: An action was raised for you.',
        'Action assigned: An action was assigned to you.',
      ]),
    );
    expect(raised).toBeDefined();
  });
});
