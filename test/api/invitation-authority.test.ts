/**
 * Issue 39, finding 1: nobody gives permissions they do not hold, through any path, invitations
 * included. What an invitation gives counts every grant each team it names holds; the inviter must hold
 * all of it when inviting, and still hold it, against what the teams hold then, when the invitation is
 * accepted, by token or by signing in through SSO. A refused acceptance writes nothing: no user, no grant,
 * no membership, and the invitation stays pending.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptanceAuthority, teamGrantsOf } from '#functions/people/invitation-authority';
import { invitations } from '#functions/people/invitations';
import { startSession } from '#shared/auth/sessions';
import { getConsistent } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import { commit, WriteRefused } from '#shared/data/transaction';
import { createTeam, createUser, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { addAccount, loginAt, oidcDiscoveryUrl, registerClient } from '../support/identity-provider';
import { type Mail, mailsTo } from '../support/mailbox';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
/** A custom role that may invite and read teams, and nothing else. */
let recruiterRole: string;
/** A custom role within the recruiter's: reading teams. */
let teamReaderRole: string;
let ssoIdentifier: string;

const org = () => `/v3/orgs/${tenant.org.id}`;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Invitation Authority Org', 0);
  admin = await api.token(tenant.admin);
  const role = async (name: string, permissions: string[]) => {
    const res = await api.request('POST', `${org()}/iam/roles`, {
      token: admin,
      body: { data: { type: 'roles', attributes: { name, permissions } } },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  [recruiterRole, teamReaderRole] = await Promise.all([
    role('Recruiter', ['invitations:manage', 'teams:view']),
    role('Team reader', ['teams:view']),
  ]);
  const clientId = (await registerClient({ redirect_uris: [`${api.url}/v3/sso/callback`] })).client_id;
  const provider = await api.request('POST', '/v3/sso-providers', {
    token: admin,
    body: {
      data: {
        type: 'sso-providers',
        attributes: { name: 'Authority IdP', metadata: oidcDiscoveryUrl, client_id: clientId },
        relationships: { organisation: { data: { type: 'organisations', id: tenant.org.id } } },
      },
    },
  });
  expect(provider.status, provider.text).toBe(201);
  ssoIdentifier = provider.body.data.meta.oidc_identifier;
});
afterAll(() => api.close());

let counter = 0;
const address = () => `authority${++counter}.${Date.now().toString(36)}@invited.example`;

/** A user holding only the recruiter role, signed in: their session's headers, and the grant. */
const recruiter = async () => {
  const user = await createUser(tenant.org.id, {
    email: address(),
    first_name: 'Rita',
    last_name: 'Recruiter',
  });
  const grant = await grantRole(tenant.org.id, recruiterRole, 'user', user.id);
  return { id: user.id, grant, headers: { 'x-session-token': (await startSession(user.id)).token } };
};

/** A team holding `role`. */
const teamHolding = async (role: string) => {
  const team = await createTeam(tenant.org.id, { name: `Team ${++counter}`, description: '' });
  await grantRole(tenant.org.id, role, 'team', team.id);
  return team.id;
};

const invite = (headers: Record<string, string>, email: string, teams: string[], roles = [recruiterRole]) =>
  api.request('POST', `${org()}/people/invitations`, {
    headers,
    body: {
      data: {
        type: 'invitations',
        attributes: { email },
        relationships: {
          roles: { data: roles.map((id) => ({ type: 'roles', id })) },
          teams: { data: teams.map((id) => ({ type: 'teams', id })) },
        },
      },
    },
  });
const tokenIn = (mail: Mail | undefined) =>
  /inv_[0-9a-f-]+\.[0-9a-f-]+\.[A-Za-z0-9_-]{43}/.exec(mail?.body.text ?? '')?.[0] ?? '';
const accept = async (email: string) =>
  api.request('POST', '/v3/invitations/accept', {
    body: {
      data: { type: 'invitation-acceptances', attributes: { token: tokenIn((await mailsTo(email)).at(-1)) } },
    },
  });
const usersWith = async (email: string) =>
  (await api.get(`${org()}/people/users?filter[email]=${encodeURIComponent(email)}`, admin)).body.data;
const membersOf = async (team: string) =>
  (await api.get(`${org()}/people/teams/${team}`, admin)).body.data.relationships.members.data;

/** A refused acceptance left nothing behind: no user, no member, the invitation pending. */
const nothingWritten = async (email: string, invitationId: string, team: string) => {
  expect(await usersWith(email)).toEqual([]);
  expect(await membersOf(team)).toEqual([]);
  const invitation = await api.get(`/v3/invitations/${invitationId}`, admin);
  expect(invitation.body.data.attributes.status).toBe('pending');
};

describe('inviting: what the named teams hold counts', () => {
  it('an inviter holding invitations:manage and teams:view cannot give admin through a team: 403 naming the permissions', async () => {
    const { headers } = await recruiter();
    const admins = await teamHolding('admin');
    const email = address();
    const res = await invite(headers, email, [admins]);
    expect(res.status, res.text).toBe(403);
    expect(res.body.errors[0].detail).toMatch(/^You can give only permissions you hold; .*assets:manage/);
    expect(res.body.errors[0].detail).toContain('users:manage');
    expect(res.body.errors[0].detail).not.toContain('invitations:manage');
    expect(await mailsTo(email)).toEqual([]);
    const listed = await api.get(`${org()}/people/invitations?filter[email]=${email}`, admin);
    expect(listed.body.data).toEqual([]);
  });

  it('a team whose grants the inviter holds only partly: 403 naming exactly the part it lacks', async () => {
    const { headers } = await recruiter();
    const role = await api.request('POST', `${org()}/iam/roles`, {
      token: admin,
      body: {
        data: { type: 'roles', attributes: { name: 'Staff', permissions: ['teams:view', 'users:view'] } },
      },
    });
    const staff = await teamHolding(role.body.data.id);
    const res = await invite(headers, address(), [staff]);
    expect(res.status, res.text).toBe(403);
    expect(res.body.errors[0].detail).toBe(
      'You can give only permissions you hold; this invitation would also give users:view.',
    );
  });

  it('teams holding more grants than one transaction can check: 413, not a conflict; nothing is sent', async () => {
    const teams = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const team = await teamHolding(teamReaderRole);
        for (let i = 0; i < 10; i++) await grantRole(tenant.org.id, 'viewer', 'team', team);
        return team;
      }),
    );
    const email = address();
    const res = await invite({ authorization: `Bearer ${admin}` }, email, teams);
    expect(res.status, res.text).toBe(413);
    expect(await mailsTo(email)).toEqual([]);
  });

  it('a team holding what the inviter holds: 201, naming its inviter; accepting gives the team’s grant', async () => {
    const inviter = await recruiter();
    const readers = await teamHolding(teamReaderRole);
    const email = address();
    const created = await invite(inviter.headers, email, [readers]);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.relationships.invited_by.data).toEqual({ type: 'users', id: inviter.id });
    const res = await accept(email);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.meta.grants.sort()).toEqual(['Recruiter', 'Team reader']);
    expect(await membersOf(readers)).toEqual([{ type: 'users', id: res.body.data.id }]);
    const me = await api.request('GET', '/v3/whoami', {
      headers: { 'x-session-token': res.body.meta.session.token },
    });
    expect(me.body.data.meta.organisations[0].permissions.sort()).toEqual([
      'invitations:manage',
      'teams:view',
    ]);
  });
});

describe('accepting: the inviter’s authority is decided again, as things stand then', () => {
  it('the team gained the admin role since: acceptance is 403 naming the permissions, and nothing is written', async () => {
    const { headers } = await recruiter();
    const readers = await teamHolding(teamReaderRole);
    const email = address();
    const created = await invite(headers, email, [readers]);
    expect(created.status, created.text).toBe(201);
    const gained = await grantRole(tenant.org.id, 'admin', 'team', readers);
    const res = await accept(email);
    expect(res.status, res.text).toBe(403);
    expect(res.body.errors[0].detail).toMatch(/its inviter no longer holds \(.*assets:manage.*\)/);
    expect(res.headers.get('set-cookie')).toBeNull();
    await nothingWritten(email, created.body.data.id, readers);
    // The token was not spent: once the team holds only what the inviter holds, it is accepted.
    const revoked = await api.request('DELETE', `${org()}/iam/grants/${gained.id}`, { token: admin });
    expect(revoked.status, revoked.text).toBe(204);
    expect((await accept(email)).status).toBe(200);
  });

  it('the inviter lost the role it gave since: acceptance is 403, and nothing is written', async () => {
    const inviter = await recruiter();
    const readers = await teamHolding(teamReaderRole);
    const email = address();
    const created = await invite(inviter.headers, email, [readers]);
    expect(created.status, created.text).toBe(201);
    const revoked = await api.request('DELETE', `${org()}/iam/grants/${inviter.grant.id}`, { token: admin });
    expect(revoked.status, revoked.text).toBe(204);
    const res = await accept(email);
    expect(res.status, res.text).toBe(403);
    expect(res.body.errors[0].detail).toContain('(invitations:manage, teams:view)');
    await nothingWritten(email, created.body.data.id, readers);
  });

  it('the inviter was suspended since: it holds nothing, and acceptance is 403', async () => {
    const inviter = await recruiter();
    const readers = await teamHolding(teamReaderRole);
    const email = address();
    const created = await invite(inviter.headers, email, [readers]);
    expect(created.status, created.text).toBe(201);
    const suspended = await api.request('PATCH', `/v3/users/${inviter.id}`, {
      token: admin,
      body: { data: { type: 'users', id: inviter.id, attributes: { status: 'suspended' } } },
    });
    expect(suspended.status, suspended.text).toBe(200);
    const res = await accept(email);
    expect(res.status, res.text).toBe(403);
    await nothingWritten(email, created.body.data.id, readers);
  });

  it('signing in through SSO with the invitation is refused the same way (403), and nothing is written', async () => {
    const { headers } = await recruiter();
    const readers = await teamHolding(teamReaderRole);
    const account = await addAccount({ email: address(), given_name: 'Sam', family_name: 'Signer' });
    const created = await invite(headers, account.email, [readers]);
    expect(created.status, created.text).toBe(201);
    await grantRole(tenant.org.id, 'admin', 'team', readers);
    const token = tokenIn((await mailsTo(account.email)).at(-1));
    const authorize = await api.request(
      'GET',
      `/v3/sso/${ssoIdentifier}/authorize?invitation=${encodeURIComponent(token)}`,
    );
    expect(authorize.status, authorize.text).toBe(303);
    const { pathname, search } = new URL(
      await loginAt(authorize.headers.get('location') ?? '', account.email),
    );
    const res = await api.request('GET', `${pathname}${search}`);
    expect(res.status, res.text).toBe(403);
    expect(res.body.errors[0].detail).toMatch(/its inviter no longer holds \(.*assets:manage.*\)/);
    expect(res.headers.get('set-cookie')).toBeNull();
    await nothingWritten(account.email, created.body.data.id, readers);
  });

  it('an inviter accepting its own invitation to a team it may give is not refused by its own checks', async () => {
    const inviter = await recruiter();
    const readers = await teamHolding(teamReaderRole);
    const user = await api.get(`/v3/users/${inviter.id}`, admin);
    const email = String(user.body.data.attributes.email);
    const created = await invite(inviter.headers, email, [readers]);
    expect(created.status, created.text).toBe(201);
    const res = await accept(email);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.id).toBe(inviter.id);
    expect(await membersOf(readers)).toEqual([{ type: 'users', id: inviter.id }]);
  });
});

describe('the acceptance’s decision is pinned as it commits', () => {
  /** A legitimate invitation to a team, and the checks its acceptance would commit with. */
  const decided = async () => {
    const inviter = await recruiter();
    const readers = await teamHolding(teamReaderRole);
    const created = await invite(inviter.headers, address(), [readers]);
    expect(created.status, created.text).toBe(201);
    const scope = scopeOf([tenant.org.id]);
    const invitation = await getConsistent(scope, {
      ...invitations.keyOf(tenant.org.id, created.body.data.id),
      orgId: tenant.org.id,
    });
    const teamGrants = await teamGrantsOf(tenant.org.id, [readers]);
    const checks = await acceptanceAuthority(invitation as NonNullable<typeof invitation>, teamGrants, 'new');
    // As things stand, the checks hold.
    await commit(scope, checks);
    return { inviter, teamGrant: teamGrants[0]?.id ?? '', checks, scope };
  };

  it.each([
    [
      'the team’s grant changed to admin',
      async ({ teamGrant }: { teamGrant: string }) =>
        api.request('PATCH', `${org()}/iam/grants/${teamGrant}`, {
          token: admin,
          body: {
            data: {
              type: 'grants',
              id: teamGrant,
              relationships: { role: { data: { type: 'roles', id: 'admin' } } },
            },
          },
        }),
    ],
    [
      'the inviter’s grant revoked',
      async ({ inviter }: { inviter: { grant: { id: string } } }) =>
        api.request('DELETE', `${org()}/iam/grants/${inviter.grant.id}`, { token: admin }),
    ],
    [
      'the inviter suspended',
      async ({ inviter }: { inviter: { id: string } }) =>
        api.request('PATCH', `/v3/users/${inviter.id}`, {
          token: admin,
          body: { data: { type: 'users', id: inviter.id, attributes: { status: 'suspended' } } },
        }),
    ],
    [
      // What it gives is the same here; a change to what it gives moves its version just so.
      'the inviter’s custom role rewritten',
      async () =>
        api.request('PATCH', `${org()}/iam/roles/${recruiterRole}`, {
          token: admin,
          body: {
            data: {
              type: 'roles',
              id: recruiterRole,
              attributes: { permissions: ['invitations:manage', 'teams:view'] },
            },
          },
        }),
    ],
  ])('%s between the decision and its commit: the commit is refused', async (_, change) => {
    const decision = await decided();
    const changed = await change(decision as never);
    expect(changed.status, changed.text).toBeLessThan(300);
    await expect(commit(decision.scope, decision.checks)).rejects.toBeInstanceOf(WriteRefused);
  });
});
