/**
 * Invitations (issue 21, "Invitations"): an e-mail names what joining gives; the token goes out once, by
 * e-mail (the local SES's outbox), and only its hash is kept; one pending invitation per address; an
 * inviter gives only what it holds; accepting makes the user, the grants, teams and job role in one
 * transaction and starts a session; resending voids the old token; revoking ends it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '#shared/auth/sessions';
import { createTeam, createUser, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { latestEvent } from '../support/event-stream';
import { type Mail, mailsTo } from '../support/mailbox';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: string;
let viewer: Record<string, string>;
let outsider: string;
let teamId: string;
let jobRoleId: string;

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Invitations Org', 1), newTenant('Invitations Other', 0)]);
  [admin, outsider] = await Promise.all([api.token(tenant.admin), api.token(other.admin)]);
  const viewerId = tenant.people[0]?.id ?? '';
  await grantRole(tenant.org.id, 'viewer', 'user', viewerId);
  viewer = { 'x-session-token': (await startSession(viewerId)).token };
  const team = await createTeam(tenant.org.id, { name: 'Jointing', description: '' });
  teamId = team.id;
  // A grant to the team: its new members hold it too.
  await grantRole(tenant.org.id, 'viewer', 'team', teamId);
  const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/people/job-roles`, {
    token: admin,
    body: { data: { type: 'job-roles', attributes: { name: 'Jointer', code: 'JNT' } } },
  });
  jobRoleId = role.body.data.id;
});
afterAll(() => api.close());

let counter = 0;
const address = () => `invitee${++counter}.${Date.now().toString(36)}@invited.example`;
const collection = `/v3/orgs/{org}/people/invitations`;
const invite = (
  email: string,
  relationships: object = { roles: { data: [{ type: 'roles', id: 'viewer' }] } },
  headers: { token?: string; headers?: Record<string, string> } = { token: admin },
  attributes: object = {},
) =>
  api.request('POST', collection.replace('{org}', tenant.org.id), {
    ...headers,
    body: { data: { type: 'invitations', attributes: { email, ...attributes }, relationships } },
  });
const accept = (token: string, attributes: object = {}) =>
  api.request('POST', '/v3/invitations/accept', {
    body: { data: { type: 'invitation-acceptances', attributes: { token, ...attributes } } },
  });
/** The token of the newest invitation mail to `to`. */
const tokenIn = (mail: Mail | undefined) =>
  /inv_[0-9a-f-]+\.[0-9a-f-]+\.[A-Za-z0-9_-]{43}/.exec(mail?.body.text ?? '')?.[0] ?? '';
const newestTokenTo = async (to: string) => tokenIn((await mailsTo(to)).at(-1));

describe('POST /v3/orgs/{org_id}/people/invitations (invitations:manage)', () => {
  it('201 with the invitation; the token goes out by e-mail only, never in an answer', async () => {
    const email = address();
    const res = await invite(email, {
      roles: { data: [{ type: 'roles', id: 'viewer' }] },
      teams: { data: [{ type: 'teams', id: teamId }] },
      job_role: { data: { type: 'job-roles', id: jobRoleId } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ email, status: 'pending', lifetime_days: 7 });
    const days = (Date.parse(res.body.data.attributes.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    expect(res.headers.get('location')).toBe(`${api.url}/v3/invitations/${res.body.data.id}`);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('You are invited to join Invitations Org');
    const token = tokenIn(mails[0]);
    expect(token).toMatch(/^inv_/);
    const read = await api.get(`/v3/invitations/${res.body.data.id}`, admin);
    expect(JSON.stringify([res.body, read.body])).not.toContain(token.split('.').at(-1));
    expect(read.body.data.relationships.teams.data).toEqual([{ type: 'teams', id: teamId }]);
  });

  it('a second pending invitation to the same address is 409; another organisation may invite it', async () => {
    const email = address();
    expect((await invite(email)).status).toBe(201);
    const again = await invite(email.toUpperCase());
    expect(again.status, again.text).toBe(409);
    expect(again.body.errors[0].source).toEqual({ pointer: '/data/attributes/email' });
    const elsewhere = await api.request('POST', collection.replace('{org}', other.org.id), {
      token: outsider,
      body: {
        data: {
          type: 'invitations',
          attributes: { email },
          relationships: { roles: { data: [{ type: 'roles', id: 'viewer' }] } },
        },
      },
    });
    expect(elsewhere.status, elsewhere.text).toBe(201);
  });

  it('an inviter gives only permissions it holds: a viewer user cannot invite at all, nor hand out admin', async () => {
    const refused = await invite(address(), undefined, { headers: viewer });
    expect(refused.status, refused.text).toBe(403);
    // A custom role that may invite, held by a user: it cannot give the administrator role.
    const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/roles`, {
      token: admin,
      body: {
        data: {
          type: 'roles',
          attributes: { name: 'Recruiter', permissions: ['invitations:manage', 'teams:view'] },
        },
      },
    });
    const recruiter = await createUser(tenant.org.id, {
      email: `recruiter.${Date.now()}@invited.example`,
      first_name: 'Rita',
      last_name: 'Recruiter',
    });
    await grantRole(tenant.org.id, role.body.data.id, 'user', recruiter.id);
    const headers = { 'x-session-token': (await startSession(recruiter.id)).token };
    const email = address();
    const tooMuch = await invite(email, { roles: { data: [{ type: 'roles', id: 'admin' }] } }, { headers });
    expect(tooMuch.status, tooMuch.text).toBe(403);
    expect(tooMuch.body.errors[0].detail).toContain('assets:manage');
    expect(await mailsTo(email)).toEqual([]);
    const within = await invite(
      email,
      { roles: { data: [{ type: 'roles', id: role.body.data.id }] } },
      { headers },
    );
    expect(within.status, within.text).toBe(201);
  });

  it.each([
    ['no role or role group', {}, '/data/relationships'],
    [
      'a team of another organisation',
      {
        roles: { data: [{ type: 'roles', id: 'viewer' }] },
        teams: { data: [{ type: 'teams', id: '01900000-0000-7000-8000-000000000000' }] },
      },
      '/data/relationships/teams/data/0',
    ],
    [
      'an unknown role',
      { roles: { data: [{ type: 'roles', id: 'superuser' }] } },
      '/data/relationships/roles/data/0',
    ],
  ])('%s is 400 with a pointer; nothing is written or sent', async (_, relationships, pointer) => {
    const email = address();
    const res = await invite(email, relationships);
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe(pointer);
    expect(await mailsTo(email)).toEqual([]);
    // The address is free: no claim was left behind.
    expect((await invite(email)).status).toBe(201);
  });

  it('a lifetime beyond 30 days is 400; another organisation’s invitations are 404', async () => {
    const res = await invite(address(), undefined, undefined, { lifetime_days: 31 });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/lifetime_days');
    const mine = await invite(address());
    expect((await api.get(`/v3/invitations/${mine.body.data.id}`, outsider)).status).toBe(404);
    expect(
      (await api.request('POST', `/v3/invitations/${mine.body.data.id}/revoke`, { token: outsider })).status,
    ).toBe(404);
  });
});

describe('POST /v3/invitations/accept (the token alone authenticates)', () => {
  it('makes the user with the grants, team (and the team’s grants) and job role, and starts a session', async () => {
    const email = address();
    const created = await invite(email, {
      roles: { data: [{ type: 'roles', id: 'viewer' }] },
      teams: { data: [{ type: 'teams', id: teamId }] },
      job_role: { data: { type: 'job-roles', id: jobRoleId } },
    });
    const res = await accept(await newestTokenTo(email), { first_name: 'Ann', last_name: 'Jointer' });
    expect(res.status, res.text).toBe(200);
    const user = res.body.data;
    expect(user.attributes).toMatchObject({ email, status: 'active' });
    expect(user.attributes.profile.personal).toMatchObject({ first_name: 'Ann', last_name: 'Jointer' });
    expect(user.relationships.teams.data).toEqual([{ type: 'teams', id: teamId }]);
    expect(user.relationships.job_role.data).toEqual({ type: 'job-roles', id: jobRoleId });
    expect(user.meta.grants).toEqual(['viewer']);
    // The session: as a token for X-Session-Token and as the __Host- cookie.
    const { token, expires_at } = res.body.meta.session;
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(7.9 * 3600_000);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toBe(`__Host-session=${token}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=28800`);
    const me = await api.request('GET', '/v3/whoami', { headers: { 'x-session-token': token } });
    expect(me.status, me.text).toBe(200);
    expect(me.body.data.id).toBe(user.id);
    expect(me.body.data.meta.organisations).toEqual([
      { id: tenant.org.id, permissions: expect.arrayContaining(['teams:view', 'users:self']) },
    ]);
    // The team lists its new member; the job role counts its holder; the invitation is accepted.
    const team = await api.get(`/v3/orgs/${tenant.org.id}/people/teams/${teamId}`, admin);
    expect(team.body.data.relationships.members.data).toContainEqual({ type: 'users', id: user.id });
    expect(
      (await api.get(`/v3/job-roles/${jobRoleId}`, admin)).body.data.meta.holders,
    ).toBeGreaterThanOrEqual(1);
    const invitation = await api.get(`/v3/invitations/${created.body.data.id}?include=user`, admin);
    expect(invitation.body.data.attributes.status).toBe('accepted');
    expect(invitation.body.data.relationships.user.data).toEqual({ type: 'users', id: user.id });
    const event = await latestEvent(tenant.org.id, 'invitation.accepted', created.body.data.id);
    expect(event.actor).toEqual({ kind: 'user', id: user.id });
  });

  it('a token works once; a wrong or malformed one is 401 and changes nothing', async () => {
    const email = address();
    await invite(email);
    const token = await newestTokenTo(email);
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await accept(forged)).status).toBe(401);
    expect((await accept('not-a-token')).status).toBe(401);
    expect((await accept(token)).status).toBe(200);
    const twice = await accept(token);
    expect(twice.status, twice.text).toBe(401);
  });

  it('accepting with the address of an existing user links them: no second user', async () => {
    const existing = await createUser(tenant.org.id, {
      email: `existing.${Date.now()}@invited.example`,
      first_name: 'Eve',
      last_name: 'Existing',
    });
    const email = String(existing.attributes.email);
    await invite(email, {
      roles: { data: [{ type: 'roles', id: 'viewer' }] },
      teams: { data: [{ type: 'teams', id: teamId }] },
    });
    const res = await accept(await newestTokenTo(email));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.id).toBe(existing.id);
    expect(res.body.data.relationships.teams.data).toEqual([{ type: 'teams', id: teamId }]);
    const listed = await api.get(
      `/v3/orgs/${tenant.org.id}/people/users?filter[email]=${encodeURIComponent(email)}`,
      admin,
    );
    expect(listed.body.data.map((u: { id: string }) => u.id)).toEqual([existing.id]);
  });
});

describe('where SSO is enforced, signing in is the only way in', () => {
  it('an organisation whose settings or provider enforce SSO refuses acceptance by token alone (409)', async () => {
    const enforcing = await newTenant('Invitations Enforced', 0);
    const token = await api.token(enforcing.admin);
    const inviteThere = async (email: string) => {
      const res = await api.request('POST', `/v3/orgs/${enforcing.org.id}/people/invitations`, {
        token,
        body: {
          data: {
            type: 'invitations',
            attributes: { email },
            relationships: { roles: { data: [{ type: 'roles', id: 'viewer' }] } },
          },
        },
      });
      expect(res.status, res.text).toBe(201);
      return newestTokenTo(email);
    };
    const settings = await api.get(`/v3/orgs/${enforcing.org.id}/settings`, token);
    const enforce = (sso_enforced: boolean) =>
      api.request('PATCH', `/v3/orgs/${enforcing.org.id}/settings`, {
        token,
        body: { data: { type: 'settings', id: settings.body.data.id, attributes: { sso_enforced } } },
      });
    expect((await enforce(true)).status).toBe(200);
    const first = await accept(await inviteThere(address()));
    expect(first.status, first.text).toBe(409);
    expect(first.body.errors[0].detail).toContain('/v3/sso/');
    // The settings no longer enforce it, but a provider does.
    expect((await enforce(false)).status).toBe(200);
    const provider = await api.request('POST', '/v3/sso-providers', {
      token,
      body: {
        data: {
          type: 'sso-providers',
          attributes: {
            name: 'Enforcing IdP',
            metadata: 'https://idp.example/.well-known/openid-configuration',
            enforce: true,
          },
          relationships: { organisation: { data: { type: 'organisations', id: enforcing.org.id } } },
        },
      },
    });
    expect(provider.status, provider.text).toBe(201);
    expect((await accept(await inviteThere(address()))).status).toBe(409);
  });
});

describe('resend and revoke', () => {
  it('resending sends a new token and voids the old; the lifetime starts again', async () => {
    const email = address();
    const created = await invite(email);
    const first = await newestTokenTo(email);
    const resent = await api.request('POST', `/v3/invitations/${created.body.data.id}/resend`, {
      token: admin,
    });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.data.attributes.status).toBe('pending');
    const second = await newestTokenTo(email);
    expect(second).not.toBe(first);
    expect((await accept(first)).status).toBe(401);
    expect((await accept(second)).status).toBe(200);
    const late = await api.request('POST', `/v3/invitations/${created.body.data.id}/resend`, {
      token: admin,
    });
    expect(late.status).toBe(409);
  });

  it('revoking stops the token and frees the address for a new invitation', async () => {
    const email = address();
    const created = await invite(email);
    const token = await newestTokenTo(email);
    const revoked = await api.request('POST', `/v3/invitations/${created.body.data.id}/revoke`, {
      token: admin,
    });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.data.attributes.status).toBe('revoked');
    expect((await accept(token)).status).toBe(401);
    expect((await invite(email)).status).toBe(201);
    expect(
      (await api.request('POST', `/v3/invitations/${created.body.data.id}/revoke`, { token: admin })).status,
    ).toBe(409);
  });
});

describe('resend and revoke are the declared moves of an invitation', () => {
  const move = (id: string, verb: string, headers: Record<string, string> = {}) =>
    api.request('POST', `/v3/invitations/${id}/${verb}`, { token: admin, headers });

  it('allowed_transitions shows resend and revoke on a pending invitation, and why not to a viewer', async () => {
    const created = await invite(address());
    const id = created.body.data.id as string;
    expect((await api.get(`/v3/invitations/${id}`, admin)).body.data.meta.allowed_transitions).toEqual([
      { verb: 'resend', allowed: true, reasons: [] },
      { verb: 'revoke', allowed: true, reasons: [] },
    ]);
    const seen = await api.request('GET', `/v3/invitations/${id}`, { headers: viewer });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.data.meta.allowed_transitions).toEqual([
      { verb: 'resend', allowed: false, reasons: ['Needs the invitations:manage permission.'] },
      { verb: 'revoke', allowed: false, reasons: ['Needs the invitations:manage permission.'] },
    ]);
  });

  it('a revoked invitation moves no further (409 STATE.001 with its state and reasons); the move is one event with from and to', async () => {
    const id = (await invite(address())).body.data.id as string;
    const revoked = await move(id, 'revoke');
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.data.meta.allowed_transitions).toEqual([
      { verb: 'resend', allowed: false, reasons: ['An invitation revoked cannot be resent.'] },
      { verb: 'revoke', allowed: false, reasons: ['An invitation revoked cannot be revoked.'] },
    ]);
    const event = await latestEvent(tenant.org.id, 'invitation.revoked', id);
    expect(event.data).toMatchObject({ transition: { verb: 'revoke', from: 'pending', to: 'revoked' } });
    const again = await move(id, 'resend');
    expect(again.status, again.text).toBe(409);
    expect(again.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      meta: {
        state: 'revoked',
        verb: 'resend',
        allowed: [],
        reasons: ['An invitation revoked cannot be resent.'],
      },
    });
  });

  it('a revocation under a stale If-Match (the invitation resent since) is 412 and the invitation stays pending', async () => {
    const email = address();
    const created = await invite(email);
    const id = created.body.data.id as string;
    const stale = created.headers.get('etag') ?? '';
    const resent = await move(id, 'resend');
    expect(resent.status, resent.text).toBe(200);
    const late = await move(id, 'revoke', { 'If-Match': stale });
    expect(late.status, late.text).toBe(412);
    expect(late.body.errors[0]).toMatchObject({
      code: 'PRECONDITION.001',
      meta: { etag: resent.headers.get('etag') },
    });
    expect((await api.get(`/v3/invitations/${id}`, admin)).body.data.attributes.status).toBe('pending');
    expect((await accept(await newestTokenTo(email))).status).toBe(200);
  });
});
