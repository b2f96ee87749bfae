/**
 * SSO login through an organisation's provider (issue 21, "SSO login (OIDC)"), driven end to end against
 * the real local OpenID provider: authorize (303 with state, nonce and PKCE), the provider's sign-in, and
 * the callback that verifies the ID token, links or makes the user and starts a session; and every
 * refusal: wrong state, a replayed callback or code, wrong nonce, expired token, wrong audience, and an
 * address outside the provider's domains. Logout ends the session.
 */
import type { JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { addAccount, loginAt, oidcDiscoveryUrl, registerClient } from '../support/identity-provider';
import { mailsTo } from '../support/mailbox';
import { startTamperingIdp, type TamperingIdp } from '../support/tampering-idp';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
let clientId: string;
let identifier: string;
let providerId: string;
let idp: TamperingIdp;
let tampered: string;
const domain = `sso-${Date.now().toString(36)}.example`;

const createProvider = async (attributes: object) => {
  const res = await api.request('POST', '/v3/sso-providers', {
    token: admin,
    body: {
      data: {
        type: 'sso-providers',
        attributes: {
          name: `IdP ${Math.random()}`,
          client_id: clientId,
          allowed_domains: [domain],
          ...attributes,
        },
        relationships: { organisation: { data: { type: 'organisations', id: tenant.org.id } } },
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('SSO Org', 0);
  admin = await api.token(tenant.admin);
  clientId = (await registerClient({ redirect_uris: [`${api.url}/v3/sso/callback`] })).client_id;
  const provider = await createProvider({ metadata: oidcDiscoveryUrl });
  identifier = provider.meta.oidc_identifier;
  providerId = provider.id;
  idp = await startTamperingIdp();
  tampered = (await createProvider({ metadata: idp.metadata })).meta.oidc_identifier;
});
afterAll(async () => {
  await idp.close();
  await api.close();
});

let people = 0;
const person = (at = domain) =>
  addAccount({ email: `person${++people}@${at}`, given_name: `Given${people}`, family_name: 'Signer' });

/** Authorize, sign in at the provider as `email`: the callback URL the provider sends the browser to. */
const signInAt = async (email: string, via = identifier, query = '') => {
  const authorize = await api.request('GET', `/v3/sso/${via}/authorize${query}`);
  expect(authorize.status, authorize.text).toBe(303);
  return loginAt(authorize.headers.get('location') ?? '', email);
};
const callback = (url: string) => {
  const { pathname, search } = new URL(url);
  return api.request('GET', `${pathname}${search}`);
};
const whoami = (token: string) => api.request('GET', '/v3/whoami', { headers: { 'x-session-token': token } });

describe('GET /v3/sso/{oidc_identifier}/authorize', () => {
  it('303 to the provider: our client, the callback, a state, a nonce and an S256 challenge', async () => {
    const res = await api.request('GET', `/v3/sso/${identifier}/authorize`);
    expect(res.status, res.text).toBe(303);
    const to = new URL(res.headers.get('location') ?? '');
    expect(to.searchParams.get('client_id')).toBe(clientId);
    expect(to.searchParams.get('redirect_uri')).toBe(`${api.url}/v3/sso/callback`);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    for (const name of ['state', 'nonce', 'code_challenge'])
      expect(to.searchParams.get(name)).toMatch(/^.{40,}$/);
  });

  it('an unknown identifier is 404; a provider without a client_id is 409', async () => {
    expect((await api.request('GET', '/v3/sso/oidc_000000000000000000000000/authorize')).status).toBe(404);
    expect((await api.request('GET', '/v3/sso/not-an-identifier/authorize')).status).toBe(404);
    const bare = await createProvider({ metadata: oidcDiscoveryUrl, client_id: undefined });
    expect((await api.request('GET', `/v3/sso/${bare.meta.oidc_identifier}/authorize`)).status).toBe(409);
  });
});

describe('GET /v3/sso/callback', () => {
  it('a first sign-in makes the user just in time with the default role, and starts a session', async () => {
    const account = await person();
    const res = await callback(await signInAt(account.email));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ email: account.email, status: 'active' });
    expect(res.body.data.attributes.identities).toEqual([
      { id: expect.any(String), platform: 'oidc', meta: { sso_provider: providerId, sub: account.sub } },
    ]);
    expect(res.body.data.meta.grants).toEqual(['viewer']);
    const { token } = res.body.meta.session;
    expect(res.headers.get('set-cookie')).toMatch(
      new RegExp(`^__Host-session=${token}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=\\d+$`),
    );
    const me = await whoami(token);
    expect(me.status, me.text).toBe(200);
    expect(me.body.data.id).toBe(res.body.data.id);
    expect(me.body.data.meta.organisations[0].permissions).toContain('users:view');
    // The cookie alone works too.
    const byCookie = await api.request('GET', '/v3/whoami', {
      headers: { cookie: `__Host-session=${token}` },
    });
    expect(byCookie.status).toBe(200);
    // A second sign-in finds the same user by the identity.
    const again = await callback(await signInAt(account.email));
    expect(again.body.data.id).toBe(res.body.data.id);
  });

  it('an existing user with the verified address is linked, not made again', async () => {
    const account = await person();
    const existing = await createUser(tenant.org.id, {
      email: account.email,
      first_name: 'Pre',
      last_name: 'Existing',
    });
    await grantRole(tenant.org.id, 'admin', 'user', existing.id);
    const res = await callback(await signInAt(account.email));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.id).toBe(existing.id);
    expect(res.body.data.meta.grants).toEqual(['admin']);
  });

  it('an address outside the provider’s allowed domains is refused (403); no user is made', async () => {
    const account = await person('elsewhere.example');
    const res = await callback(await signInAt(account.email));
    expect(res.status, res.text).toBe(403);
    const listed = await api.get(
      `/v3/orgs/${tenant.org.id}/people/users?filter[email]=${encodeURIComponent(account.email)}`,
      admin,
    );
    expect(listed.body.data).toEqual([]);
  });

  it('an address with two @ whose last part is an allowed domain is refused (403); no user is made', async () => {
    // Issue 39, finding 7: the domain check reads what follows the last @; the address itself is no address.
    const account = await addAccount({ email: `x${++people}@evil.test@${domain}`, given_name: 'Mallory' });
    const res = await callback(await signInAt(account.email));
    expect(res.status, res.text).toBe(403);
    expect(res.body.errors[0].detail).toBe(
      'The identity provider gave an e-mail address that is not a valid address.',
    );
    expect(res.headers.get('set-cookie')).toBeNull();
    const listed = await api.get(
      `/v3/orgs/${tenant.org.id}/people/users?filter[email]=${encodeURIComponent(account.email)}`,
      admin,
    );
    expect(listed.body.data).toEqual([]);
  });

  it('a wrong state is 401 (state_mismatch), and the real one still signs in: the code was not spent', async () => {
    const account = await person();
    const url = new URL(await signInAt(account.email));
    const wrong = new URL(url);
    wrong.searchParams.set('state', 'a'.repeat(43));
    const res = await callback(wrong.href);
    expect(res.status, res.text).toBe(401);
    expect(res.body.errors[0]).toMatchObject({ code: 'AUTH.001', meta: { reason: 'state_mismatch' } });
    expect((await callback(url.href)).status).toBe(200);
  });

  it('a replayed callback is 401: its state was taken by the first', async () => {
    const url = await signInAt((await person()).email);
    expect((await callback(url)).status).toBe(200);
    const replay = await callback(url);
    expect(replay.status).toBe(401);
    expect(replay.body.errors[0].meta.reason).toBe('state_mismatch');
  });

  it('a replayed code under a fresh sign-in’s state is refused by the provider (code_rejected)', async () => {
    const account = await person();
    const first = new URL(await signInAt(account.email));
    expect((await callback(first.href)).status).toBe(200);
    const second = new URL(await signInAt(account.email));
    second.searchParams.set('code', first.searchParams.get('code') ?? '');
    const res = await callback(second.href);
    expect(res.status, res.text).toBe(401);
    expect(res.body.errors[0].meta.reason).toBe('code_rejected');
  });

  it.each([
    ['nonce_mismatch', (c: JWTPayload) => ({ ...c, nonce: 'another-sign-in' })],
    ['token_expired', (c: JWTPayload) => ({ ...c, exp: Math.floor(Date.now() / 1000) - 120 })],
    ['audience_mismatch', (c: JWTPayload) => ({ ...c, aud: 'another-client' })],
  ])('an ID token with a %s is 401 with that reason; no session starts', async (reason, claims) => {
    const account = await person();
    idp.tamper(claims);
    const res = await callback(await signInAt(account.email, tampered));
    expect(res.status, res.text).toBe(401);
    expect(res.body.errors[0].meta.reason).toBe(reason);
    expect(res.headers.get('set-cookie')).toBeNull();
    idp.tamper((c) => c);
  });

  it('an ID token re-signed unchanged through the same endpoint signs in (the control of the above)', async () => {
    idp.tamper((c) => c);
    expect((await callback(await signInAt((await person()).email, tampered))).status).toBe(200);
  });

  it('a suspended user is refused at sign-in', async () => {
    const account = await person();
    const first = await callback(await signInAt(account.email));
    const id = first.body.data.id as string;
    const suspended = await api.request('PATCH', `/v3/users/${id}`, {
      token: admin,
      body: { data: { type: 'users', id, attributes: { status: 'suspended' } } },
    });
    expect(suspended.status, suspended.text).toBe(200);
    expect((await whoami(first.body.meta.session.token)).status).toBe(401);
    expect((await callback(await signInAt(account.email))).status).toBe(403);
  });
});

describe('an invitation accepted by signing in', () => {
  it('?invitation=<token> on authorize: the sign-in accepts it, with what it gives, and links the identity', async () => {
    const account = await person('invited.example');
    const invited = await api.request('POST', `/v3/orgs/${tenant.org.id}/people/invitations`, {
      token: admin,
      body: {
        data: {
          type: 'invitations',
          attributes: { email: account.email },
          relationships: {
            roles: { data: [{ type: 'roles', id: 'admin' }] },
            sso_provider: { data: { type: 'sso-providers', id: providerId } },
          },
        },
      },
    });
    expect(invited.status, invited.text).toBe(201);
    const token = /inv_[^\s]+/.exec((await mailsTo(account.email)).at(-1)?.body.text ?? '')?.[0] ?? '';
    // It names a provider: the token alone does not accept it.
    const byToken = await api.request('POST', '/v3/invitations/accept', {
      body: { data: { type: 'invitation-acceptances', attributes: { token } } },
    });
    expect(byToken.status).toBe(409);
    const res = await callback(
      await signInAt(account.email, identifier, `?invitation=${encodeURIComponent(token)}`),
    );
    expect(res.status, res.text).toBe(200);
    // Not an allowed domain, but invited: the invitation decides.
    expect(res.body.data.meta.grants).toEqual(['admin']);
    expect(res.body.data.attributes.identities[0].meta.sub).toBe(account.sub);
    const read = await api.get(`/v3/invitations/${invited.body.data.id}`, admin);
    expect(read.body.data.attributes.status).toBe('accepted');
  });
});

describe('an invitation is for its address only', () => {
  it('signing in as another account with someone’s invitation is 403, and the invitation stays pending', async () => {
    const [invitee, other] = [await person('invited.example'), await person()];
    const invited = await api.request('POST', `/v3/orgs/${tenant.org.id}/people/invitations`, {
      token: admin,
      body: {
        data: {
          type: 'invitations',
          attributes: { email: invitee.email },
          relationships: { roles: { data: [{ type: 'roles', id: 'admin' }] } },
        },
      },
    });
    const token = /inv_[^\s]+/.exec((await mailsTo(invitee.email)).at(-1)?.body.text ?? '')?.[0] ?? '';
    const res = await callback(
      await signInAt(other.email, identifier, `?invitation=${encodeURIComponent(token)}`),
    );
    expect(res.status, res.text).toBe(403);
    const read = await api.get(`/v3/invitations/${invited.body.data.id}`, admin);
    expect(read.body.data.attributes.status).toBe('pending');
  });
});

describe('POST /v3/sessions/current/logout', () => {
  it('ends the session that sent it (204, the cookie cleared); the token is refused after', async () => {
    const signedIn = await callback(await signInAt((await person()).email));
    const { token } = signedIn.body.meta.session;
    const out = await api.request('POST', '/v3/sessions/current/logout', {
      headers: { 'x-session-token': token },
    });
    expect(out.status, out.text).toBe(204);
    expect(out.headers.get('set-cookie')).toBe(
      '__Host-session=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0',
    );
    expect((await whoami(token)).status).toBe(401);
  });

  it('a machine client (OAuth2) has no session to end: 401', async () => {
    expect((await api.request('POST', '/v3/sessions/current/logout', { token: admin })).status).toBe(401);
  });
});

describe('a confidential client (issue 41, item 6): the token exchange authenticates with the stored secret, PKCE still', () => {
  for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
    it(`signs in end to end with ${method} at the local provider; a wrong secret is refused by the provider`, async () => {
      const secret = `secret-${method}-${Math.random().toString(36).slice(2)}`;
      const confidential = await registerClient({
        client_secret: secret,
        token_endpoint_auth_method: method,
        redirect_uris: [`${api.url}/v3/sso/callback`],
      });
      const provider = await createProvider({
        metadata: oidcDiscoveryUrl,
        client_id: confidential.client_id,
        client_secret: secret,
      });
      expect(provider.attributes.has_client_secret).toBe(true);
      const via = provider.meta.oidc_identifier as string;
      const account = await person();
      const res = await callback(await signInAt(account.email, via));
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.attributes.email).toBe(account.email);
      // The same sign-in with another secret stored: the provider refuses the exchange.
      const changed = await api.request('PATCH', `/v3/sso-providers/${provider.id}`, {
        token: admin,
        body: {
          data: { type: 'sso-providers', id: provider.id, attributes: { client_secret: `${secret}x` } },
        },
      });
      expect(changed.status, changed.text).toBe(200);
      const refused = await callback(await signInAt(account.email, via));
      expect(refused.status, refused.text).toBe(401);
    });
  }
});

describe('return_to (issue 41, item 6): the callback sends the browser back to an allowed web app', () => {
  const app = `https://app.${domain}`;
  let via: string;
  beforeAll(async () => {
    via = (await createProvider({ metadata: oidcDiscoveryUrl, return_to_allow_list: [`${app}/signed-in`] }))
      .meta.oidc_identifier;
  });
  const begin = (returnTo: string) =>
    api.request('GET', `/v3/sso/${via}/authorize?return_to=${encodeURIComponent(returnTo)}`);

  it('an allowed return_to: 303 there with the session in the __Host-session cookie, no token in the URL', async () => {
    const returnTo = `${app}/signed-in/projects?tab=open`;
    const started = await begin(returnTo);
    expect(started.status, started.text).toBe(303);
    const account = await person();
    const { pathname, search } = new URL(await loginAt(started.headers.get('location') ?? '', account.email));
    const res = await api.request('GET', `${pathname}${search}`, {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(res.status, res.text).toBe(303);
    expect(res.headers.get('location')).toBe(returnTo);
    const cookie = /^__Host-session=([^;]+);/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '';
    expect(cookie).not.toBe('');
    expect(res.headers.get('location')).not.toContain(cookie);
    const me = await api.request('GET', '/v3/whoami', { headers: { cookie: `__Host-session=${cookie}` } });
    expect(me.status, me.text).toBe(200);
  });

  it('a client that asks for JSON:API still gets the user and meta.session, return_to or not', async () => {
    const started = await begin(`${app}/signed-in`);
    const { pathname, search } = new URL(
      await loginAt(started.headers.get('location') ?? '', (await person()).email),
    );
    const res = await api.request('GET', `${pathname}${search}`, {
      headers: { accept: 'application/vnd.api+json' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta.session.token).toEqual(expect.any(String));
  });

  it('a return_to the provider does not list is refused at the start: 400 at the return_to parameter', async () => {
    for (const refused of [
      'https://evil.example/signed-in',
      `${app}/signed-in-elsewhere`,
      `${app}/admin`,
      `${app}/signed-in/../admin`,
      `${app}:8443/signed-in`,
      `http://app.${domain}/signed-in`,
      `${app}@evil.example/signed-in`,
      `https://evil.example\\@app.${domain}/signed-in`,
      `//evil.example/signed-in`,
      'javascript:alert(document.cookie)',
      `data:text/html,<a href="${app}/signed-in">`,
    ]) {
      const res = await begin(refused);
      expect(res.status, refused).toBe(400);
      expect(res.body.errors[0].source, refused).toEqual({ parameter: 'return_to' });
    }
    // A provider that lists nothing allows no return_to at all.
    const res = await api.request(
      'GET',
      `/v3/sso/${identifier}/authorize?return_to=${encodeURIComponent(`${app}/signed-in`)}`,
    );
    expect(res.status).toBe(400);
  });

  it('an entry taken off the allow-list while a sign-in is in flight is refused at the callback (400); no session', async () => {
    const provider = await createProvider({
      metadata: oidcDiscoveryUrl,
      return_to_allow_list: [`${app}/brief`],
    });
    const started = await api.request(
      'GET',
      `/v3/sso/${provider.meta.oidc_identifier}/authorize?return_to=${encodeURIComponent(`${app}/brief`)}`,
    );
    expect(started.status, started.text).toBe(303);
    const callbackUrl = await loginAt(started.headers.get('location') ?? '', (await person()).email);
    await api.request('PATCH', `/v3/sso-providers/${provider.id}`, {
      token: admin,
      body: { data: { type: 'sso-providers', id: provider.id, attributes: { return_to_allow_list: [] } } },
    });
    const res = await callback(callbackUrl);
    expect(res.status, res.text).toBe(400);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('a provider deleted while a sign-in is in flight: the callback is refused (401 provider_error)', async () => {
    const provider = await createProvider({ metadata: oidcDiscoveryUrl });
    const started = await api.request('GET', `/v3/sso/${provider.meta.oidc_identifier}/authorize`);
    const callbackUrl = await loginAt(started.headers.get('location') ?? '', (await person()).email);
    expect((await api.request('DELETE', `/v3/sso-providers/${provider.id}`, { token: admin })).status).toBe(
      204,
    );
    const res = await callback(callbackUrl);
    expect(res.status, res.text).toBe(401);
    expect(res.body.errors[0].meta).toEqual({ reason: 'provider_error' });
  });
});
