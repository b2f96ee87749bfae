/**
 * Where SSO_ALLOW_LOOPBACK_HTTP is not set (AWS, and this unit project), a provider is reached over
 * https only: an http URL, even on loopback, is refused before any request leaves. In a Lambda function
 * 127.0.0.1 is the runtime API, never an identity provider. (The API tests, which set it, sign in
 * against the local provider over http: test/api/oidc-login.test.ts.)
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginLogin, finishLogin, OidcLoginError } from '#shared/auth/oidc-login';

let requests = 0;
const server = createServer((_req, res) => {
  requests += 1;
  res.writeHead(500).end();
});
let loopback: string;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  loopback = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => server.close());

const refused = async (login: Promise<unknown>) => {
  const error = await login.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OidcLoginError);
  expect(error).toMatchObject({ reason: 'provider_error', status: 401 });
  expect(requests, 'requests that reached the loopback server').toBe(0);
};

describe('SSO providers over plain http, where loopback http is not allowed', () => {
  it('refuses an http discovery URL without fetching it', async () => {
    const metadata = `${loopback}/.well-known/openid-configuration`;
    await refused(beginLogin({ metadata, clientId: 'rp', redirectUri: 'https://api.example/cb' }));
  });

  it('refuses to send the browser to an http authorization endpoint', async () => {
    const metadata = JSON.stringify({
      issuer: 'https://idp.example',
      authorization_endpoint: `${loopback}/auth`,
      token_endpoint: 'https://idp.example/token',
    });
    await refused(beginLogin({ metadata, clientId: 'rp', redirectUri: 'https://api.example/cb' }));
  });

  it('refuses to exchange a code at an http token endpoint', async () => {
    const metadata = JSON.stringify({
      issuer: 'https://idp.example',
      authorization_endpoint: 'https://idp.example/auth',
      token_endpoint: `${loopback}/token`,
      jwks_uri: `${loopback}/jwks`,
    });
    const login = finishLogin({
      metadata,
      clientId: 'rp',
      redirectUri: 'https://api.example/cb',
      callbackUrl: 'https://api.example/cb?code=a-code&state=the-state',
      expected: { state: 'the-state', nonce: 'the-nonce', codeVerifier: 'v'.repeat(43) },
    });
    await refused(login);
  });
});
