/**
 * SSO login as a relying party (shared/auth/oidc-login.ts) against the real local OpenID provider: a
 * login returns the verified claims, and every way a callback or ID token can be wrong is refused with
 * its reason. An honest provider never issues a token with a wrong nonce, audience, issuer, expiry or
 * signature, so those tests put a tampering token endpoint of their own between the relying party and
 * the provider: the metadata (as JSON) keeps the provider's authorization endpoint, but names the test's
 * token endpoint, which forwards the code exchange to the provider and rewrites the ID token it returns,
 * re-signed with the test's key (served as `jwks_uri`) or with a stranger's.
 */
import type { JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginLogin, type FinishLogin, finishLogin, OidcLoginError } from '#shared/auth/oidc-login';
import { freePort } from '../../infra/local/engines';
import type { IdentityProviderAccount } from '../../infra/local/identity-provider';
import {
  addAccount,
  loginAt,
  oidcDiscoveryUrl,
  oidcIssuer,
  registerClient,
} from '../support/identity-provider';
import { startTamperingIdp, type TamperingIdp } from '../support/tampering-idp';

// Never requested: loginAt stops at the redirect to it.
const redirectUri = 'http://127.0.0.1:9/sso/callback';
let account: IdentityProviderAccount;
let publicClient: string;

beforeAll(async () => {
  account = await addAccount({
    email: `ada.${Date.now()}@northmere-water.example`,
    given_name: 'Ada',
    family_name: 'Lovelace',
  });
  publicClient = (await registerClient({ redirect_uris: [redirectUri] })).client_id;
});

/** Begins a login, signs in at the provider as the test's account, and gives the callback to finish. */
const signIn = async (metadata: string, clientId = publicClient) => {
  const begun = await beginLogin({ metadata, clientId, redirectUri });
  const callbackUrl = await loginAt(begun.authorizationUrl, account.email);
  const finish = (changes: Partial<FinishLogin> = {}) =>
    finishLogin({ metadata, clientId, redirectUri, callbackUrl, expected: begun, ...changes });
  return { begun, callbackUrl, finish };
};

const refusal = async (login: Promise<unknown>) => {
  const error = await login.then(
    (claims) => expect.fail(`signed in: ${JSON.stringify(claims)}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OidcLoginError);
  return error as OidcLoginError;
};

const accountClaims = () => ({
  sub: account.sub,
  email: account.email,
  email_verified: true,
  given_name: 'Ada',
  family_name: 'Lovelace',
});

describe('OIDC login against the local provider', () => {
  it('returns the verified claims of the account that signed in (public client, PKCE)', async () => {
    const { begun, finish } = await signIn(oidcDiscoveryUrl);
    const url = new URL(begun.authorizationUrl);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: publicClient,
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      state: begun.state,
      nonce: begun.nonce,
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.has('code_verifier')).toBe(false);
    expect(await finish()).toEqual(accountClaims());
  });

  it('signs in a confidential client with its secret (client_secret_basic)', async () => {
    const confidential = await registerClient({
      redirect_uris: [redirectUri],
      client_secret: 's3cret-for-test',
    });
    const { finish } = await signIn(oidcDiscoveryUrl, confidential.client_id);
    expect(await finish({ clientSecret: 's3cret-for-test' })).toEqual(accountClaims());
  });

  it('refuses a callback whose state is not this login’s (state_mismatch), before spending the code', async () => {
    const { begun, finish } = await signIn(oidcDiscoveryUrl);
    const other = await beginLogin({ metadata: oidcDiscoveryUrl, clientId: publicClient, redirectUri });
    const error = await refusal(finish({ expected: { ...begun, state: other.state } }));
    expect(error).toMatchObject({ reason: 'state_mismatch', status: 401, code: 'AUTH.001' });
    // The code was not exchanged: the same callback with its own state still signs in.
    expect(await finish()).toEqual(accountClaims());
  });

  it('refuses a replayed code: the provider answers invalid_grant the second time (code_rejected)', async () => {
    const { finish } = await signIn(oidcDiscoveryUrl);
    expect(await finish()).toEqual(accountClaims());
    expect(await refusal(finish())).toMatchObject({ reason: 'code_rejected', status: 401 });
  });

  it('refuses a real ID token once its exp has passed (token_expired), the clock passed as now', async () => {
    const { finish } = await signIn(oidcDiscoveryUrl);
    // The provider's ID tokens last an hour; two hours on, this one has expired.
    const later = new Date(Date.now() + 2 * 3600_000);
    expect(await refusal(finish({ now: later }))).toMatchObject({ reason: 'token_expired' });
  });

  it('refuses a callback naming another issuer (issuer_mismatch, RFC 9207 iss)', async () => {
    const { callbackUrl, finish } = await signIn(oidcDiscoveryUrl);
    const forged = new URL(callbackUrl);
    forged.searchParams.set('iss', 'https://idp.elsewhere.example');
    expect(await refusal(finish({ callbackUrl: forged.href }))).toMatchObject({ reason: 'issuer_mismatch' });
  });

  it('refuses a callback carrying the provider’s error (provider_error)', async () => {
    const begun = await beginLogin({ metadata: oidcDiscoveryUrl, clientId: publicClient, redirectUri });
    const callback = new URL(redirectUri);
    callback.search = new URLSearchParams({
      error: 'access_denied',
      state: begun.state,
      iss: oidcIssuer,
    }).toString();
    const login = finishLogin({
      metadata: oidcDiscoveryUrl,
      clientId: publicClient,
      redirectUri,
      callbackUrl: callback.href,
      expected: begun,
    });
    const error = await refusal(login);
    expect(error).toMatchObject({
      reason: 'provider_error',
      detail: 'The identity provider answered access_denied.',
    });
  });

  it('refuses when the provider cannot be reached (provider_unreachable, 503)', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}/.well-known/openid-configuration`;
    const login = beginLogin({ metadata: nowhere, clientId: publicClient, redirectUri });
    expect(await refusal(login)).toMatchObject({ reason: 'provider_unreachable', status: 503 });
  });
});

describe('OIDC login through a tampering token endpoint', () => {
  let idp: TamperingIdp;
  beforeAll(async () => {
    idp = await startTamperingIdp();
  });
  afterAll(() => idp.close());

  const through = async (claims: (claims: JWTPayload) => JWTPayload, strangerSigns = false) => {
    idp.tamper(claims, { strangerSigns });
    return (await signIn(idp.metadata)).finish();
  };

  it('signs in when the token is re-signed unchanged with a key the JWKS serves (the control)', async () => {
    expect(await through((claims) => claims)).toEqual(accountClaims());
  });

  it('refuses an ID token whose nonce is not this login’s (nonce_mismatch)', async () => {
    const login = through((claims) => ({ ...claims, nonce: 'a-nonce-of-another-login' }));
    expect(await refusal(login)).toMatchObject({ reason: 'nonce_mismatch', status: 401 });
  });

  it('refuses an ID token past its exp (token_expired)', async () => {
    const login = through((claims) => ({ ...claims, exp: Math.floor(Date.now() / 1000) - 120 }));
    expect(await refusal(login)).toMatchObject({ reason: 'token_expired' });
  });

  it('refuses an ID token issued to another client (audience_mismatch)', async () => {
    const login = through((claims) => ({ ...claims, aud: 'another-client' }));
    expect(await refusal(login)).toMatchObject({ reason: 'audience_mismatch' });
  });

  it('refuses an ID token from another issuer (issuer_mismatch)', async () => {
    const login = through((claims) => ({ ...claims, iss: 'https://idp.elsewhere.example' }));
    expect(await refusal(login)).toMatchObject({ reason: 'issuer_mismatch' });
  });

  it('refuses an ID token signed by a key the provider does not publish, under its key id (bad_signature)', async () => {
    const login = through((claims) => claims, true);
    expect(await refusal(login)).toMatchObject({ reason: 'bad_signature' });
  });
});
