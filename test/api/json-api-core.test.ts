import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { assertJsonApiDocument } from '../support/conformance';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Core Org', 0);
  token = await api.token(tenant.admin);
});
afterAll(() => api.close());

const teams = () => `/v3/orgs/${tenant.org.id}/people/teams`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('GET /v3/status', () => {
  it('answers 200 with a JSON:API document, without authentication, once the table answers', async () => {
    const res = await api.get('/v3/status');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      jsonapi: { version: '1.1' },
      meta: {
        status: 'available',
        stage: expect.any(String),
        api_version: '1.0.0',
        checks: { database: 'available' },
      },
    });
  });
});

describe('response security headers (issue 15, finding 6; OWASP REST Security Cheat Sheet)', () => {
  const expectHardened = (headers: Headers, cacheControl = 'no-store') => {
    expect(headers.get('cache-control')).toBe(cacheControl);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(headers.get('server')).toBeNull();
    expect(headers.get('x-powered-by')).toBeNull();
  };
  const tokenForm = (secret: string) =>
    api.request('POST', '/oauth2/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: tenant.viewer.clientId,
        client_secret: secret,
      }).toString(),
    });

  it('authenticated answers, errors, the 404/405 fallback and the token endpoint all carry them, with Cache-Control: no-store', async () => {
    const answers = {
      'authenticated 200': await api.get(teams(), token),
      'unauthenticated 401': await api.get(teams()),
      'unknown route 404': await api.get('/v3/nowhere', token),
      'wrong method 405': await api.request('DELETE', '/v3/orgs', { token }),
      'malformed body 400': await api.request('POST', teams(), {
        token,
        headers: { 'content-type': 'application/vnd.api+json' },
        body: '{',
      }),
      'public status 200': await api.get('/v3/status'),
      'token 200 (RFC 6749 §5.1)': await tokenForm(tenant.viewer.clientSecret),
      'token 401': await tokenForm('wrong'),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.status, name).toBeGreaterThan(0);
      expectHardened(res.headers);
    }
    expect(answers['authenticated 200'].status).toBe(200);
    expect(answers['token 200 (RFC 6749 §5.1)'].status).toBe(200);
  });

  it('only a public route chooses its own caching: the JWKS is cacheable for five minutes', async () => {
    expectHardened((await api.get('/.well-known/jwks.json')).headers, 'public, max-age=300');
  });

  it('a body the local gateway refuses (over 10 MB) is answered with them too', async () => {
    const res = await fetch(`${api.url}${teams()}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
      body: 'x'.repeat(10 * 1024 * 1024 + 1),
    });
    await res.text();
    expect(res.status).toBe(413);
    expectHardened(res.headers);
  });
});

describe('error documents and headers', () => {
  it('an unknown route is a JSON:API 404 with a UUID id', async () => {
    const res = await api.get('/v3/nowhere', token);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(res.body.errors[0]).toMatchObject({
      status: '404',
      title: 'Resource not found',
      code: 'NOT_FOUND.001',
    });
    expect(res.body.errors[0].id).toMatch(UUID);
  });

  it('a wrong method is 405 with Allow', async () => {
    const res = await api.request('DELETE', '/v3/orgs', { token });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('each error gets a fresh id, and each response its own X-Request-ID', async () => {
    const [one, two] = await Promise.all([api.get('/v3/nowhere'), api.get('/v3/nowhere')]);
    expect(one.body.errors[0].id).not.toBe(two.body.errors[0].id);
    expect(one.headers.get('x-request-id')).not.toBe(two.headers.get('x-request-id'));
  });

  it('a caller’s safe X-Request-ID is echoed', async () => {
    const res = await api.request('GET', '/v3/status', { headers: { 'x-request-id': 'trace-1234abcd' } });
    expect(res.headers.get('x-request-id')).toBe('trace-1234abcd');
  });

  it('malformed JSON is 400', async () => {
    const res = await api.request('POST', teams(), {
      token,
      headers: { 'content-type': 'application/vnd.api+json' },
      body: '{"data": {',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      title: 'A validation error was encountered',
      detail: expect.stringMatching(/JSON/),
    });
  });

  it('a body that is not JSON:API is 415; a JSON:API media type with parameters is 415', async () => {
    for (const type of ['application/json', 'application/vnd.api+json; charset=utf-8']) {
      const res = await api.request('POST', teams(), {
        token,
        headers: { 'content-type': type },
        body: JSON.stringify({ data: { type: 'teams', attributes: { name: 'x' } } }),
      });
      expect(res.status, type).toBe(415);
    }
  });

  it('Accept with only parameterised JSON:API media types is 406', async () => {
    const res = await api.request('GET', teams(), {
      token,
      headers: { accept: 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"' },
    });
    expect(res.status).toBe(406);
  });

  it('a body over 1 MiB is 413, and nothing is written', async () => {
    const res = await api.request('POST', teams(), {
      token,
      body: { data: { type: 'teams', attributes: { name: 'Big', description: 'x'.repeat(1024 * 1024) } } },
    });
    expect(res.status).toBe(413);
    const list = await api.get(teams(), token);
    expect(list.body.meta.pagination.counts.resources).toBe(0);
  });
});

/** A raw HTTP/1.1 exchange, for requests fetch would not send or that Node refuses before any handler. */
const rawRequest = (url: string, head: string) =>
  new Promise<{ status: number; headers: Map<string, string>; body: string }>((done, fail) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname, () => socket.end(head));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', fail);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [top = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = top.split('\r\n');
      const headers = new Map(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      done({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });

describe('requests the HTTP layer refuses still get a JSON:API error and an X-Request-ID (as API Gateway answers JSON)', () => {
  it('headers over Node’s 16 KB limit: 431', async () => {
    const raw = await rawRequest(
      api.url,
      `GET /v3/status HTTP/1.1\r\nHost: local\r\nX-Big: ${'k'.repeat(20 * 1024)}\r\n\r\n`,
    );
    expect(raw.status).toBe(431);
    expect(raw.headers.get('x-request-id')).toMatch(UUID);
    expect(raw.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(raw.headers.get('content-length')).toBe(String(Buffer.byteLength(raw.body)));
    const document = JSON.parse(raw.body);
    assertJsonApiDocument(document);
    expect(document.errors[0]).toMatchObject({ status: '431' });
    // The same through fetch (the test client checks the headers and the document).
    const res = await api.request('GET', teams(), { token, headers: { 'x-big': 'k'.repeat(20 * 1024) } });
    expect(res.status).toBe(431);
  });

  it('a request Node cannot parse: 400', async () => {
    const raw = await rawRequest(api.url, 'GET /v3/status HTTP/1.1\r\nHost: local\r\nNo colon here\r\n\r\n');
    expect(raw.status).toBe(400);
    expect(raw.headers.get('x-request-id')).toMatch(UUID);
    assertJsonApiDocument(JSON.parse(raw.body));
  });

  it('a body over API Gateway’s 10 MB: 413', async () => {
    const res = await api.request('POST', teams(), { token, body: 'x'.repeat(10 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(res.body.errors[0]).toMatchObject({ status: '413', title: 'Payload too large' });
  });

  it('a malformed percent escape in a path id is a 400 naming the parameter (was a 502)', async () => {
    const res = await api.get('/v3/orgs/%E0%A4%A/people/teams', token);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ parameter: 'org_id' });
  });
});

describe('collection offsets at and beyond 2^31 and 2^53 (issue 15: they answered 500)', () => {
  it('an offset beyond the end, up to 2^53 − 1, is 200 with an empty page that echoes it', async () => {
    for (const offset of [2 ** 31 - 1, 2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER]) {
      for (const name of ['offset', 'page[offset]']) {
        const res = await api.get(`${teams()}?${name}=${offset}`, token);
        expect(res.status, `${name}=${offset}`).toBe(200);
        expect(res.body.data).toEqual([]);
        expect(res.body.meta.pagination.requested.offset).toBe(offset);
        expect(res.body.meta.pagination.offsets.next).toBeNull();
      }
    }
  });

  it('an offset beyond 2^53 − 1 (where JSON numbers stop being exact) is a 400 naming the parameter', async () => {
    for (const digits of ['9007199254740992', '9'.repeat(400)]) {
      for (const name of ['offset', 'page[offset]']) {
        const res = await api.get(`${teams()}?${name}=${digits}`, token);
        expect(res.status).toBe(400);
        expect(res.body.errors[0].source).toEqual({ parameter: name });
      }
    }
  });
});

describe('prototype-chain names are never known names (issue 15: sort=__proto__ was accepted)', () => {
  it('sort, filter and include names, and query parameter names, are a 400 naming the parameter', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'valueOf']) {
      for (const [query, parameter] of [
        [`sort=${name}`, 'sort'],
        [`sort=-${name}`, 'sort'],
        [`filter[${name}]=x`, `filter[${name}]`],
        [`include=${name}`, 'include'],
        [`${name}=1`, name],
      ]) {
        const res = await api.get(`${teams()}?${query}`, token);
        expect(res.status, query).toBe(400);
        expect(res.body.errors[0].source, query).toEqual({ parameter });
      }
    }
  });
});
