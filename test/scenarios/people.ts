/**
 * Issue 21's walk-through, through the public API and the identity provider only: the organisation's
 * administrator invites a new person by e-mail; they accept by signing in through the organisation's
 * OpenID provider; `GET /v3/whoami` shows what the invitation gave; the administrator suspends them, and
 * their next call is refused.
 *
 * The API tests run it against the local adapter and the tests' provider; `npm run scenario:people`
 * runs it against `npm start` (its provider, its SES emulator). Every step checks its answer.
 */
import assert from 'node:assert/strict';
import { loginAt } from '../support/oidc-browser';
import type { Http } from './cdm';

export interface PeopleScenario {
  http: Http;
  orgId: string;
  /** An access token of the organisation's administrator (a client holding the admin role). */
  adminToken: string;
  /** The organisation's SSO provider's `oidc_identifier`. */
  oidcIdentifier: string;
  /** The person invited: an address at a domain the organisation's provider lets sign in. */
  person: { email: string; given_name: string; family_name: string };
  /** Gives the person an account at the provider (they have one at their employer's in life). */
  addAccount(person: PeopleScenario['person']): Promise<void>;
  /** The text of the newest mail sent to an address. */
  newestMailTo(address: string): Promise<string>;
}

export interface PeopleResult {
  invitationId: string;
  userId: string;
  sessionToken: string;
  permissions: string[];
}

// biome-ignore lint/suspicious/noExplicitAny: the scenario reads arbitrary members of response documents
type Doc = any;

export const runPeopleScenario = async (
  s: PeopleScenario,
  log: (line: string) => void = () => {},
): Promise<PeopleResult> => {
  const call = async (
    method: string,
    path: string,
    options: Parameters<Http['request']>[2],
    expected: number,
  ) => {
    const res = await s.http.request(method, path, options);
    assert.equal(res.status, expected, `${method} ${path}: ${res.text}`);
    return res;
  };

  const invited = await call(
    'POST',
    `/v3/orgs/${s.orgId}/people/invitations`,
    {
      token: s.adminToken,
      body: {
        data: {
          type: 'invitations',
          attributes: { email: s.person.email },
          relationships: { roles: { data: [{ type: 'roles', id: 'viewer' }] } },
        },
      },
    },
    201,
  );
  const invitationId = (invited.body as Doc).data.id as string;
  log(`the administrator invites ${s.person.email} as a viewer (invitation ${invitationId})`);

  const mail = await s.newestMailTo(s.person.email);
  const token = /inv_[0-9a-f-]+\.[0-9a-f-]+\.[A-Za-z0-9_-]{43}/.exec(mail)?.[0];
  assert.ok(token, `no invitation token in the mail to ${s.person.email}: ${mail}`);
  log('the invitation e-mail arrives, with its link and token');

  await s.addAccount(s.person);
  const authorize = await call(
    'GET',
    `/v3/sso/${s.oidcIdentifier}/authorize?invitation=${encodeURIComponent(token)}`,
    {},
    303,
  );
  const back = new URL(await loginAt(authorize.headers.get('location') ?? '', s.person.email));
  const signedIn = await call('GET', `${back.pathname}${back.search}`, {}, 200);
  const user = (signedIn.body as Doc).data;
  const sessionToken = (signedIn.body as Doc).meta.session.token as string;
  assert.match(signedIn.headers.get('set-cookie') ?? '', /^__Host-session=/);
  log(`they sign in through the organisation's identity provider: user ${user.id}, a session started`);

  const me = await call('GET', '/v3/whoami', { headers: { 'x-session-token': sessionToken } }, 200);
  const organisations = (me.body as Doc).data.meta.organisations as { id: string; permissions: string[] }[];
  const permissions = organisations.find((o) => o.id === s.orgId)?.permissions ?? [];
  assert.ok(permissions.includes('users:view') && !permissions.includes('users:manage'), permissions.join());
  const read = await call('GET', `/v3/users/${user.id}`, { token: s.adminToken }, 200);
  assert.deepEqual((read.body as Doc).data.meta.grants, ['viewer']);
  log(`GET /v3/whoami shows the viewer's ${permissions.length} permissions in the organisation`);

  await call(
    'PATCH',
    `/v3/users/${user.id}`,
    {
      token: s.adminToken,
      body: { data: { type: 'users', id: user.id, attributes: { status: 'suspended' } } },
    },
    200,
  );
  log('the administrator suspends them');
  await call('GET', '/v3/whoami', { headers: { 'x-session-token': sessionToken } }, 401);
  log('their next call is refused (401): the suspension ended their session');

  return { invitationId, userId: user.id, sessionToken, permissions };
};
