import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../infra/local/records';
import { SESSION_COOKIE, startSession } from '../../shared/auth/sessions';
import { startTestApi, type TestApi } from '../support/api';
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
    for (const token of [expired.token, `sess_${'A'.repeat(43)}`]) {
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

  it('two credentials at once are refused', async () => {
    const { token } = await startSession(userId(0));
    const res = await api.request('GET', teams(), { token: admin, headers: { 'x-session-token': token } });
    expect(res.status).toBe(401);
  });
});
