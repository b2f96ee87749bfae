import { createSign } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPrincipal, putPrincipal } from '#shared/data/principals';
import { startTestApi, type TestApi } from '../support/api';
import { signHs256WithPublicKey, signRs256 } from '../support/jwt';
import { expectSecurityHeaders } from '../support/security-headers';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Token Org');
});
afterAll(() => api.close());

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const postToken = (body: string, headers: Record<string, string> = FORM) =>
  api.request('POST', '/oauth2/token', { headers, body });

describe('POST /oauth2/token (client credentials, RFC 6749 §4.4)', () => {
  it('exchanges form-field credentials for exactly access_token, expires_in, scope and token_type', async () => {
    const { clientId, clientSecret } = tenant.admin;
    const res = await postToken(
      form({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(res.body).toMatchObject({ scope: '', token_type: 'bearer', expires_in: 3600 });
    const [header, payload] = String(res.body.access_token)
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'RS256', typ: 'at+jwt', kid: expect.any(String) });
    expect(payload).toMatchObject({
      sub: tenant.admin.principalId,
      client_id: clientId,
      iss: process.env.TOKEN_ISSUER,
    });
    expect(payload.exp - payload.iat).toBe(3600);
  });

  it('accepts HTTP Basic client authentication (RFC 6749 §2.3.1)', async () => {
    const basic = Buffer.from(
      `${tenant.admin.clientId}:${encodeURIComponent(tenant.admin.clientSecret)}`,
    ).toString('base64');
    const res = await postToken(form({ grant_type: 'client_credentials' }), {
      ...FORM,
      authorization: `Basic ${basic}`,
    });
    expect(res.status).toBe(200);
  });

  it('a wrong secret is 401 invalid_client', async () => {
    const res = await postToken(
      form({ grant_type: 'client_credentials', client_id: tenant.admin.clientId, client_secret: 'wrong' }),
    );
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('a wrong secret over Basic is 401 invalid_client with a Basic challenge', async () => {
    const basic = Buffer.from(`${tenant.admin.clientId}:nope`).toString('base64');
    const res = await postToken(form({ grant_type: 'client_credentials' }), {
      ...FORM,
      authorization: `Basic ${basic}`,
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it('an unknown client is 401 invalid_client', async () => {
    const res = await postToken(
      form({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' }),
    );
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  it('another grant type is 400 unsupported_grant_type', async () => {
    const res = await postToken(form({ grant_type: 'password', username: 'a', password: 'b' }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported_grant_type');
  });

  it('a missing grant_type, a JSON body, or both client authentication methods are 400 invalid_request', async () => {
    const { clientId, clientSecret } = tenant.admin;
    const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
    const cases = [
      postToken(form({ client_id: clientId, client_secret: clientSecret })),
      postToken(JSON.stringify({ grant_type: 'client_credentials' }), { 'content-type': 'application/json' }),
      postToken(
        form({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
        {
          ...FORM,
          authorization: `Basic ${basic}`,
        },
      ),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
    }
  });
});

/**
 * The token endpoint as seen from a given source address: every 127/8 address is this machine, so a test
 * can be a caller of its own, as API Gateway's `sourceIp` would tell callers apart.
 */
const postTokenFrom = (localAddress: string, body: string, headers: Record<string, string> = FORM) =>
  new Promise<{ status: number; headers: Headers; body: Record<string, unknown> }>((done, fail) => {
    const url = new URL('/oauth2/token', api.url);
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') answer.set(name, value);
          expectSecurityHeaders(answer, url.pathname, res.statusCode ?? 0);
          done({
            status: res.statusCode ?? 0,
            headers: answer,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          });
        });
      },
    );
    req.on('error', fail);
    req.end(body);
  });

const credentialsForm = (clientId: string, clientSecret: string) =>
  form({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });

/** What a client sees of an answer, apart from how many seconds it is told to wait. */
const seen = (res: { status: number; headers: Headers; body: Record<string, unknown> }) => ({
  status: res.status,
  body: { ...res.body, error_description: String(res.body.error_description).replace(/\d+/g, 'N') },
  retryAfter: res.headers.get('retry-after') === null ? null : 'seconds',
  cacheControl: res.headers.get('cache-control'),
});

describe('POST /oauth2/token throttles failed client authentication (issue 15, finding 5)', () => {
  const PER_CLIENT = 10;
  const PER_SOURCE = 50;
  const throttled = {
    status: 429,
    body: {
      error: 'invalid_client',
      error_description: 'Too many failed client authentications; retry after N seconds.',
    },
    retryAfter: 'seconds',
    cacheControl: 'no-store',
  };
  const refused = {
    status: 401,
    body: { error: 'invalid_client', error_description: 'Client authentication failed.' },
    retryAfter: null,
    cacheControl: 'no-store',
  };

  it(`the ${PER_CLIENT}th failure for one client id is 429 with Retry-After and an RFC 6749 §5.2 body; the right secret is refused too until the window closes`, async () => {
    const own = await newTenant('Throttled Org', 0);
    const answers = [];
    for (let i = 0; i < PER_CLIENT; i++)
      answers.push(await postTokenFrom('127.0.5.1', credentialsForm(own.admin.clientId, `wrong-${i}`)));
    expect(answers.slice(0, -1).map(seen)).toEqual(Array(PER_CLIENT - 1).fill(refused));
    const last = answers.at(-1);
    if (!last) throw new Error('no answer');
    expect(seen(last)).toEqual(throttled);
    const retryAfter = Number(last.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 900, String(retryAfter)).toBe(
      true,
    );
    // The right secret, from the same source and from another, during the lockout.
    const right = credentialsForm(own.admin.clientId, own.admin.clientSecret);
    expect(seen(await postTokenFrom('127.0.5.1', right))).toEqual(throttled);
    expect(seen(await postTokenFrom('127.0.5.2', right))).toEqual(throttled);
  }, 60_000);

  it('an unknown client id is counted and throttled exactly like a known one, with the same answers', async () => {
    const own = await newTenant('Known Org', 0);
    const run = async (clientId: string, address: string) => {
      const answers = [];
      for (let i = 0; i <= PER_CLIENT; i++)
        answers.push(seen(await postTokenFrom(address, credentialsForm(clientId, `wrong-${i}`))));
      return answers;
    };
    const known = await run(own.admin.clientId, '127.0.6.1');
    const unknown = await run(crypto.randomUUID(), '127.0.6.2');
    const malformed = await run('not-a-client-id', '127.0.6.3');
    expect(known.map((a) => a.status)).toEqual([...Array(PER_CLIENT - 1).fill(401), 429, 429]);
    expect(unknown).toEqual(known);
    expect(malformed).toEqual(known);
  }, 60_000);

  it(`per source: ${PER_SOURCE} failures from one address across different client ids lock that address out, and only it`, async () => {
    const address = '127.0.7.1';
    const first = await Promise.all(
      Array.from({ length: PER_SOURCE - 1 }, () =>
        postTokenFrom(address, credentialsForm(crypto.randomUUID(), 'wrong')),
      ),
    );
    expect(first.map((a) => a.status)).toEqual(Array(PER_SOURCE - 1).fill(401));
    expect(seen(await postTokenFrom(address, credentialsForm(crypto.randomUUID(), 'wrong')))).toEqual(
      throttled,
    );
    const right = credentialsForm(tenant.admin.clientId, tenant.admin.clientSecret);
    expect(seen(await postTokenFrom(address, right))).toEqual(throttled);
    expect((await postTokenFrom('127.0.7.2', right)).status).toBe(200);
  }, 90_000);

  it('a client_id over DynamoDB’s 2,048-byte key limit, in the form or over Basic, is 401 invalid_client like any unknown client', async () => {
    const long = 'c'.repeat(3000);
    const unknown = seen(await postTokenFrom('127.0.8.1', credentialsForm(crypto.randomUUID(), 'x')));
    expect(unknown).toEqual(refused);
    expect(seen(await postTokenFrom('127.0.8.2', credentialsForm(long, 'x')))).toEqual(unknown);
    const basic = await postTokenFrom('127.0.8.3', form({ grant_type: 'client_credentials' }), {
      ...FORM,
      authorization: `Basic ${Buffer.from(`${long}:x`).toString('base64')}`,
    });
    expect(seen(basic)).toEqual(unknown);
    expect(basic.headers.get('www-authenticate')).toMatch(/^Basic/);
  });
});

describe('Bearer tokens on API calls (AUTH.001)', () => {
  it('no credentials is 401 AUTH.001 with the spec’s title', async () => {
    const res = await api.get('/v3/orgs');
    expect(res.status).toBe(401);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        status: '401',
        code: 'AUTH.001',
        title: 'You are not authorised to access this resource',
      }),
    ]);
  });

  it('a tampered token is 401', async () => {
    const token = await api.token(tenant.admin);
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    expect((await api.get('/v3/orgs', `${h}.${forged}.${s}`)).status).toBe(401);
  });

  it('alg none and a token signed by another key are refused (RFC 8725)', async () => {
    const token = await api.token(tenant.admin);
    const [, p] = token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${p}.`;
    expect((await api.get('/v3/orgs', none)).status).toBe(401);
    const { generateKeyPairSync } = await import('node:crypto');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'at+jwt', kid: 'other' })).toString(
      'base64url',
    );
    const signature = createSign('RSA-SHA256')
      .update(`${header}.${p}`)
      .sign(privateKey)
      .toString('base64url');
    expect((await api.get('/v3/orgs', `${header}.${p}.${signature}`)).status).toBe(401);
  });

  it('a disabled key stops working at once, and so does a disabled service account', async () => {
    const own = await newTenant('Disable Org', 0);
    const token = await api.token(own.admin);
    expect((await api.get('/v3/orgs', token)).status).toBe(200);
    const principal = await getPrincipal(own.admin.principalId);
    if (!principal) throw new Error('principal missing');
    await putPrincipal({ ...principal, keys: { [own.admin.clientId]: { enabled: false } } });
    expect((await api.get('/v3/orgs', token)).status).toBe(401);
    await putPrincipal({ ...principal, enabled: false });
    expect((await api.get('/v3/orgs', token)).status).toBe(401);
    const refused = await postToken(
      form({
        grant_type: 'client_credentials',
        client_id: own.admin.clientId,
        client_secret: own.admin.clientSecret,
      }),
    );
    expect(refused.body.error).toBe('invalid_client');
  });
});

describe('GET /.well-known/jwks.json', () => {
  it('publishes the RSA public key, without any private member', async () => {
    const res = await api.get('/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(res.body.keys).toHaveLength(1);
    expect(res.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) });
    expect(Object.keys(res.body.keys[0]).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
  });
});

describe('RFC 8725 and RFC 9068 checks on access tokens (each refusal is 401 AUTH.001)', () => {
  const claims = () => {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: process.env.TOKEN_ISSUER,
      aud: process.env.TOKEN_AUDIENCE,
      sub: tenant.admin.principalId,
      client_id: tenant.admin.clientId,
      iat: now,
      nbf: now,
      exp: now + 300,
      jti: 'test',
    };
  };
  const without = (name: string) => {
    const { [name as keyof ReturnType<typeof claims>]: _gone, ...rest } = claims();
    return rest;
  };
  const expectRefused = async (token: string) => {
    const res = await api.get('/v3/orgs', token);
    expect(res.status, res.text).toBe(401);
    expect(res.body.errors[0].code).toBe('AUTH.001');
  };
  const now = () => Math.floor(Date.now() / 1000);

  it('a well-formed token signed by the key is accepted (the control case)', async () => {
    expect((await api.get('/v3/orgs', signRs256({}, claims()))).status).toBe(200);
  });

  it('a token without exp is refused (RFC 9068 §2.2: exp is required)', async () => {
    await expectRefused(signRs256({}, without('exp')));
  });

  it('a token without iat is refused (RFC 9068 §2.2: iat is required)', async () => {
    await expectRefused(signRs256({}, without('iat')));
  });

  it('iat more than 60 s in the future is refused; within the 60 s clock skew it is accepted', async () => {
    await expectRefused(signRs256({}, { ...claims(), iat: now() + 600, nbf: undefined }));
    expect((await api.get('/v3/orgs', signRs256({}, { ...claims(), iat: now() + 20 }))).status).toBe(200);
  });

  it('a token without jti is refused (RFC 9068 §2.2: jti is required)', async () => {
    await expectRefused(signRs256({}, without('jti')));
    await expectRefused(signRs256({}, { ...claims(), jti: '' }));
  });

  it('an expired token is refused', async () => {
    await expectRefused(
      signRs256({}, { ...claims(), iat: now() - 7200, nbf: now() - 7200, exp: now() - 3600 }),
    );
  });

  it('a token not yet valid (nbf in the future) is refused', async () => {
    await expectRefused(signRs256({}, { ...claims(), nbf: now() + 3600 }));
  });

  it('a token from another issuer, even one differing by a trailing slash, is refused (exact iss)', async () => {
    await expectRefused(signRs256({}, { ...claims(), iss: 'https://elsewhere.example' }));
    await expectRefused(signRs256({}, { ...claims(), iss: `${process.env.TOKEN_ISSUER}/` }));
  });

  it('a token for another audience, or for several including this one, is refused (exact aud)', async () => {
    await expectRefused(signRs256({}, { ...claims(), aud: 'compliance-api:prod' }));
    await expectRefused(signRs256({}, { ...claims(), aud: [process.env.TOKEN_AUDIENCE, 'another-api'] }));
  });

  it('a JWT of another type (an ID token) or with no typ is refused (RFC 8725 §3.11, RFC 9068 §4)', async () => {
    await expectRefused(signRs256({ typ: 'JWT' }, claims()));
    await expectRefused(signRs256({ typ: undefined }, claims()));
  });

  it('only RS256: RS512 signed by the same key is refused (RFC 8725 §3.1)', async () => {
    await expectRefused(signRs256({ alg: 'RS512' }, claims(), 'sha512'));
  });

  it('HS256 signed with the public key as the secret is refused (RFC 8725 §2.1)', async () => {
    await expectRefused(signHs256WithPublicKey(claims()));
  });

  it('a token without kid is refused', async () => {
    await expectRefused(signRs256({ kid: undefined }, claims()));
  });

  it('a token with a crit header is refused (RFC 7515 §4.1.11: no extension is understood here)', async () => {
    await expectRefused(signRs256({ crit: ['exp'] }, claims()));
  });

  it('a key named or carried in the token’s own header (jwk, jku, x5c, x5u) is never used: such tokens are refused', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = attacker.publicKey.export({ format: 'jwk' });
    const header = Buffer.from(
      JSON.stringify({ alg: 'RS256', typ: 'at+jwt', kid: 'attacker', jwk }),
    ).toString('base64url');
    const payload = Buffer.from(JSON.stringify(claims())).toString('base64url');
    const signature = createSign('RSA-SHA256')
      .update(`${header}.${payload}`)
      .sign(attacker.privateKey)
      .toString('base64url');
    await expectRefused(`${header}.${payload}.${signature}`);
    for (const member of [
      { jwk },
      { jku: `${process.env.TOKEN_ISSUER}/.well-known/jwks.json` },
      { x5u: 'https://elsewhere.example/cert.pem' },
      { x5c: ['MIIB'] },
    ]) {
      await expectRefused(signRs256(member, claims()));
    }
  });
});
