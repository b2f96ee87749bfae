/**
 * Issue 15: a lone UTF-16 surrogate in a string that reached the S3 SDK answered 500. Every string of a
 * request is checked once at the edge, for every route: 400 with a pointer, parameter or header, before
 * any handler runs.
 */
import { describe, expect, it } from 'vitest';
import type { ApiContext } from '#shared/http/api-context';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import type { Route } from '#shared/routes';
import { gatewayEvent } from '../../support/gateway-event';

const route: Route = {
  id: 'echo',
  method: 'POST',
  path: '/v3/echo/{thing_id}',
  area: 'test',
  tag: 'Test',
  handler: 'x',
  auth: [],
  permission: null,
  access: {},
  query: ['q', '__proto__', 'constructor'],
};

let reached = 0;
const handler = jsonApiHandler(route, async () => {
  reached += 1;
  return { jsonapi: { version: '1.1' }, meta: {} };
});

const ID = '0190d5a0-0000-7000-8000-000000000001';

const send = async ({
  body,
  query = '',
  headers = {},
  id = ID,
}: {
  body?: string;
  query?: string;
  headers?: Record<string, string>;
  id?: string;
}) => {
  const before = reached;
  const result = await handler(
    gatewayEvent({
      method: 'POST',
      route: '/v3/echo/{thing_id}',
      path: `/v3/echo/${id}`,
      query,
      headers: { 'content-type': 'application/vnd.api+json', ...headers },
      pathParameters: { thing_id: id },
      ...(body !== undefined && { body }),
    }),
    {} as ApiContext,
  );
  return {
    status: result.statusCode,
    errors: (JSON.parse(result.body ?? '{}').errors ?? []) as {
      status: string;
      detail?: string;
      source?: object;
    }[],
    reachedHandler: reached > before,
  };
};

describe('well-formed input at the edge', () => {
  it('a lone surrogate or NUL anywhere in a JSON:API body is a 400 pointing at it; the handler never runs', async () => {
    const cases: [string, string][] = [
      ['{"data":{"attributes":{"name":"\\ud800"}}}', '/data/attributes/name'],
      ['{"data":{"attributes":{"name":"a\\udc00b"}}}', '/data/attributes/name'],
      ['{"data":{"attributes":{"tags":["ok","\\u0000"]}}}', '/data/attributes/tags/1'],
      ['{"data":{"attributes":{"\\ud800":1}}}', '/data/attributes/\ud800'],
      ['{"data":{"attributes":{"a/b~c":"x\\u0000"}}}', '/data/attributes/a~1b~0c'],
    ];
    for (const [body, pointer] of cases) {
      const res = await send({ body });
      expect(res.status, body).toBe(400);
      expect(res.errors[0]?.source).toEqual({ pointer });
      expect(res.reachedHandler).toBe(false);
    }
  });

  it('well-formed text passes: astral characters, line breaks and tabs in body values', async () => {
    const res = await send({
      body: JSON.stringify({ data: { attributes: { name: '😀 x\n\ty', n: 2 ** 53 - 1 } } }),
    });
    expect(res.status).toBe(200);
    expect(res.reachedHandler).toBe(true);
  });

  it('numbers beyond ±(2^53 − 1) in a body are a 400: JSON numbers there lose digits', async () => {
    for (const n of ['9007199254740992', '-9007199254740993', '1e21', '1e308']) {
      const res = await send({ body: `{"data":{"attributes":{"amount":${n}}}}` });
      expect(res.status, n).toBe(400);
      expect(res.errors[0]?.source).toEqual({ pointer: '/data/attributes/amount' });
    }
  });

  it('a member named __proto__ is a 400 (JSON makes it a member, JavaScript a prototype); constructor is a name', async () => {
    const proto = await send({ body: '{"data":{"attributes":{"__proto__":{"x":1}}}}' });
    expect(proto.status).toBe(400);
    expect(proto.errors[0]).toMatchObject({ detail: expect.stringContaining('__proto__') });
    expect(proto.reachedHandler).toBe(false);
    const named = await send({ body: '{"data":{"attributes":{"constructor":"x"}}}' });
    expect(named.status).toBe(200);
  });

  it('bodies nest at most 32 levels (what DynamoDB stores); a million levels is a 400, not a stack overflow', async () => {
    const nest = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect((await send({ body: `{"data":${nest(30)}}` })).status).toBe(200);
    expect((await send({ body: `{"data":${nest(40)}}` })).status).toBe(400);
    expect((await send({ body: `{"data":${nest(500_000)}}` })).status).toBe(400);
  });

  it('NUL and control characters in query names and values are a 400 naming the parameter', async () => {
    for (const [query, parameter] of [
      ['q=a%00b', 'q'],
      ['q=%0A', 'q'],
      ['q=%7F', 'q'],
      ['q%00=1', 'q\0'],
    ]) {
      const res = await send({ query, body: '{}' });
      expect(res.status, query).toBe(400);
      expect(res.errors[0]?.source).toEqual({ parameter });
    }
  });

  it('query parameters named __proto__ or constructor are parameters like any other', async () => {
    expect((await send({ query: '__proto__=1&constructor=2', body: '{}' })).status).toBe(200);
  });

  it('control characters in a path parameter or a header value are a 400 naming it', async () => {
    const path = await send({ id: `${ID}\u0000`, body: '{}' });
    expect(path.status).toBe(400);
    expect(
      path.errors.some((e) => JSON.stringify(e.source) === JSON.stringify({ parameter: 'thing_id' })),
    ).toBe(true);
    const header = await send({ headers: { 'x-note': 'a\u0001b' }, body: '{}' });
    expect(header.status).toBe(400);
    expect(header.errors[0]?.source).toEqual({ header: 'x-note' });
    // A tab and Latin-1 bytes are legal in header values.
    expect((await send({ headers: { 'x-note': 'a\tbé' }, body: '{}' })).status).toBe(200);
  });
});
