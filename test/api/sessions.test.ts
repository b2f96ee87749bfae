import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE, startSession } from '#shared/auth/sessions';
import { dynamodb } from '#shared/data/clients';
import { createTeam } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { isBudgetLease } from '../support/request-overhead';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Sessions Org', 3);
  admin = await api.token(tenant.admin);
});
afterAll(() => api.close());

const teams = () => `/v3/orgs/${tenant.org.id}/people/teams`;
const grant = async (grantee: 'user' | 'team', id: string, role = 'viewer') => {
  const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/grants`, {
    token: admin,
    body: {
      data: {
        type: 'grants',
        relationships: {
          role: { data: { type: 'roles', id: role } },
          [grantee]: { data: { type: `${grantee}s`, id } },
        },
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const userId = (i: number) => tenant.people[i]?.id ?? '';

/** DynamoDB calls while `fn` runs (the handlers run in this process): command, and keys of a BatchGetItem. */
const calls: string[] = [];
dynamodb.middlewareStack.add(
  (next, context) => async (args) => {
    const batch = (args.input as { RequestItems?: Record<string, { Keys: unknown[] }> }).RequestItems;
    const keys = Object.values(batch ?? {}).reduce((n, r) => n + r.Keys.length, 0);
    if (!isBudgetLease(args.input)) calls.push(`${context.commandName}${batch ? ` of ${keys} keys` : ''}`);
    return next(args);
  },
  { step: 'initialize', name: 'countSessionTestCalls' },
);
const callsDuring = async (fn: () => Promise<unknown>) => {
  calls.length = 0;
  await fn();
  return [...calls];
};

describe('Session scheme (X-Session-Token) and Cookie scheme', () => {
  it('a user with a grant reads through either scheme; whoami names the user', async () => {
    await grant('user', userId(0));
    const { token } = await startSession(userId(0));
    expect((await api.request('GET', teams(), { headers: { 'x-session-token': token } })).status).toBe(200);
    expect(
      (await api.request('GET', teams(), { headers: { cookie: `theme=dark; ${SESSION_COOKIE}=${token}` } }))
        .status,
    ).toBe(200);
    const me = await api.request('GET', '/v3/whoami', { headers: { 'x-session-token': token } });
    expect(me.body.data.attributes.kind).toBe('user');
    expect(me.body.data.relationships.principal.data).toEqual({ type: 'users', id: userId(0) });
  });

  it('grants to a team count for its members, and stop when revoked', async () => {
    const team = await createTeam(tenant.org.id, {
      name: 'Night shift',
      description: 'n',
      memberIds: [userId(1)],
    });
    const { token } = await startSession(userId(1));
    const headers = { 'x-session-token': token };
    expect((await api.request('GET', teams(), { headers })).status).toBe(403);
    const grantId = await grant('team', team.id);
    expect((await api.request('GET', teams(), { headers })).status).toBe(200);
    await api.request('DELETE', `/v3/orgs/${tenant.org.id}/iam/grants/${grantId}`, { token: admin });
    expect((await api.request('GET', teams(), { headers })).status).toBe(403);
  });

  it('an unknown or expired session is 401 AUTH.001', async () => {
    const expired = await startSession(userId(0), Date.now() - 9 * 60 * 60 * 1000);
    const { token: real } = await startSession(userId(0));
    const forged = [
      expired.token,
      `sess_${'A'.repeat(43)}`,
      `sess_${userId(0)}.${'A'.repeat(43)}`,
      // The user id is part of the token: naming another user finds no session.
      real.replace(userId(0), userId(1)),
    ];
    for (const token of forged) {
      const res = await api.request('GET', teams(), { headers: { 'x-session-token': token } });
      expect(res.status).toBe(401);
      expect(res.body.errors[0].code).toBe('AUTH.001');
    }
  });

  it('a session token is not a bearer token, and an access token is not a session token', async () => {
    const { token } = await startSession(userId(0));
    expect((await api.get(teams(), token)).status).toBe(401);
    expect((await api.request('GET', teams(), { headers: { 'x-session-token': admin } })).status).toBe(401);
  });

  it('a single-record read fetches session, user and record in one BatchGetItem', async () => {
    await grant('user', userId(2));
    const { token } = await startSession(userId(2));
    const headers = { 'x-session-token': token };
    const categories = `/v3/orgs/${tenant.org.id}/assets/equipment-categories`;
    const created = await api.request('POST', categories, {
      token: admin,
      body: { data: { type: 'equipment-categories', attributes: { name: 'Read ahead' } } },
    });
    expect(created.status, created.text).toBe(201);
    const path = `${categories}/${created.body.data.id}`;
    // Tests read grants on every request (GRANT_CACHE_SECONDS=0): the Query of the user's grants follows.
    // A warm deployed function has them cached, and the BatchGetItem is the whole cost (npm run bench).
    // Its fourth key is the assets feature's switch, which a warm function remembers as long.
    let res = await api.request('GET', path, { headers });
    expect(await callsDuring(async () => (res = await api.request('GET', path, { headers })))).toEqual([
      'BatchGetItemCommand of 4 keys',
      'QueryCommand',
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes.name).toBe('Read ahead');
    // A record that is not there is a 404 from the same one call, not a second read.
    const missing = `${categories}/${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}`;
    expect(await callsDuring(async () => (res = await api.request('GET', missing, { headers })))).toEqual([
      'BatchGetItemCommand of 4 keys',
      'QueryCommand',
    ]);
    expect(res.status).toBe(404);
  });

  it('two credentials at once are refused', async () => {
    const { token } = await startSession(userId(0));
    const res = await api.request('GET', teams(), { token: admin, headers: { 'x-session-token': token } });
    expect(res.status).toBe(401);
  });
});
