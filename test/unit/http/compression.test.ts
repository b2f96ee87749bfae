/**
 * Issue 39: which coding a request's Accept-Encoding picks (shared/http/accept-encoding.ts), and the
 * Lambda result a compressed answer becomes: base64 with `isBase64Encoded`, as API Gateway takes binary
 * bodies from a function (the local adapter decodes it the same way; test/api/compression.test.ts).
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { preferredCoding } from '#shared/http/accept-encoding';
import type { ApiContext } from '#shared/http/api-context';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import type { Route } from '#shared/routes';
import { gatewayEvent } from '../../support/gateway-event';

describe('Accept-Encoding (RFC 9110 §12.5.3)', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['GZIP;Q=0.8, BR;q=0.9', 'br'],
    ['gzip;q=1.0, br;q=0.999', 'gzip'],
    ['gzip;q=0', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['*;q=0', undefined],
    ['deflate, zstd', undefined],
    ['gzip;q=0.5, identity', undefined],
    ['gzip, identity;q=0.5', 'gzip'],
    ['gzip;q=2', undefined],
    ['gzip;q=abc, br;q=0.1', 'br'],
  ] as const)('%s → %s', (header, coding) => {
    expect(preferredCoding(header)).toBe(coding);
  });
});

describe('a compressed answer as a Lambda result', () => {
  const route: Route = {
    id: 'large',
    method: 'GET',
    path: '/v3/large',
    area: 'test',
    tag: 'Test',
    handler: 'x',
    auth: [],
    permission: null,
    access: {},
  };
  const document = { jsonapi: { version: '1.1' as const }, meta: { text: 'x'.repeat(5000) } };
  const handler = jsonApiHandler(route, async () => document);
  const call = (headers: Record<string, string>) =>
    handler(
      gatewayEvent({ method: 'GET', route: '/v3/large', path: '/v3/large', headers }),
      {} as ApiContext,
    );

  it('is base64 with isBase64Encoded, Content-Length the encoded length, Vary and Content-Encoding', async () => {
    const result = await call({ 'accept-encoding': 'gzip' });
    expect(result.isBase64Encoded).toBe(true);
    const bytes = Buffer.from(result.body ?? '', 'base64');
    expect(result.headers).toMatchObject({
      'Content-Encoding': 'gzip',
      'Content-Length': String(bytes.length),
      Vary: 'Accept-Encoding',
    });
    expect(JSON.parse(gunzipSync(bytes).toString('utf8'))).toEqual(document);
  });

  it('without an accepted coding is text, as before', async () => {
    const result = await call({});
    expect(result.isBase64Encoded).toBeUndefined();
    expect(JSON.parse(result.body ?? '')).toEqual(document);
    expect(result.headers?.['Content-Length']).toBe(String(Buffer.byteLength(result.body ?? '')));
    expect(result.headers?.Vary).toBe('Accept-Encoding');
  });
});
