/**
 * Issue 39: large answers are compressed for clients that accept it (shared/http/middlewares/
 * compression.ts). Read here as a client sees them on the wire (node:http, which decodes nothing, unlike
 * fetch): the encoded bytes, their length and headers, then decoded and compared with the answer sent as
 * it is.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_FROM_BYTES } from '#shared/http/middlewares/compression';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant } from '../support/tenants';

let api: TestApi;
let token: string;
let orgId: string;

beforeAll(async () => {
  api = await startTestApi();
  const tenant = await newTenant('Compression', 0);
  orgId = tenant.org.id;
  token = await api.token(tenant.admin);
});
afterAll(() => api.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** A GET read off the wire, with only the headers given (node:http adds no Accept-Encoding). */
const raw = (path: string, headers: Record<string, string> = {}) =>
  new Promise<Raw>((done, fail) => {
    const req = request(`${api.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });

const decoded = ({ headers, bytes }: Raw): Buffer => {
  const coding = headers['content-encoding'];
  if (coding === 'gzip') return gunzipSync(bytes);
  if (coding === 'br') return brotliDecompressSync(bytes);
  if (coding === undefined) return bytes;
  throw new Error(`unexpected content coding ${coding}`);
};

const expectEncoded = (answer: Raw, coding: 'gzip' | 'br') => {
  expect(answer.headers['content-encoding']).toBe(coding);
  expect(answer.headers['content-length']).toBe(String(answer.bytes.length));
  expect(answer.headers.vary).toBe('Accept-Encoding');
};

const expectAsItIs = (answer: Raw) => {
  expect(answer.headers['content-encoding']).toBeUndefined();
  expect(answer.headers['content-length']).toBe(String(answer.bytes.length));
};

const FILES = [
  ['/v3/specifications/openapi.json', 'docs/openapi.json'],
  ['/v3/specifications/openapi.yaml', 'docs/openapi.yaml'],
  ['/docs/swagger-ui.js', 'node_modules/swagger-ui-dist/swagger-ui-bundle.js'],
] as const;

describe('compressed answers (issue 39)', () => {
  it.each(FILES)(
    '%s asked for with gzip, and with br, decodes to the file’s bytes; Content-Encoding, Content-Length of the encoded bytes, Vary',
    async (path, file) => {
      const original = readFileSync(file);
      const plain = await raw(path);
      expectAsItIs(plain);
      expect(plain.bytes.equals(original)).toBe(true);
      for (const coding of ['gzip', 'br'] as const) {
        const answer = await raw(path, { 'accept-encoding': coding });
        expect(answer.status).toBe(200);
        expectEncoded(answer, coding);
        expect(answer.bytes.length).toBeLessThan(original.length / 3);
        expect(decoded(answer).equals(original)).toBe(true);
        // Kept per container: a second answer is the same bytes.
        expect((await raw(path, { 'accept-encoding': coding })).bytes.equals(answer.bytes)).toBe(true);
      }
    },
  );

  it('the coding the client rates highest is used, brotli on a tie; q=0 refuses one; * stands for the others', async () => {
    const path = '/v3/specifications/openapi.json';
    for (const [accepted, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0, *', 'gzip'],
      ['*', 'br'],
      ['x-gzip', 'gzip'],
    ] as const) {
      const answer = await raw(path, { 'accept-encoding': accepted });
      expect(answer.headers['content-encoding'], accepted).toBe(coding);
    }
  });

  it('without Accept-Encoding, with identity, with gzip;q=0, or with no coding offered, the answer goes as it is, with Vary', async () => {
    for (const accepted of [undefined, 'identity', 'gzip;q=0', 'deflate, zstd', '', 'gzip;q=0.2, identity']) {
      const answer = await raw(
        '/v3/specifications/openapi.json',
        accepted === undefined ? {} : { 'accept-encoding': accepted },
      );
      expectAsItIs(answer);
      expect(answer.headers.vary, String(accepted)).toBe('Accept-Encoding');
      expect(JSON.parse(answer.bytes.toString('utf8')).openapi).toMatch(/^3\.1\./);
    }
  });

  it('an answer under 1 KiB goes as it is, without Vary', async () => {
    const answer = await raw('/v3/status', { 'accept-encoding': 'gzip, br' });
    expect(answer.status).toBe(200);
    expect(answer.bytes.length).toBeLessThan(COMPRESS_FROM_BYTES);
    expectAsItIs(answer);
    expect(answer.headers.vary).toBeUndefined();
  });

  it('a large JSON:API answer is compressed, with its other headers (RateLimit, X-Request-ID, security headers) intact', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const plain = await raw('/v3/whoami', auth);
    expect(plain.bytes.length).toBeGreaterThan(COMPRESS_FROM_BYTES);
    const answer = await raw('/v3/whoami', { ...auth, 'accept-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expectEncoded(answer, 'gzip');
    expect(answer.headers['content-type']).toBe('application/vnd.api+json');
    expect(answer.headers.ratelimit).toMatch(/^"(client|organisation)";r=\d+;t=\d+$/);
    expect(answer.headers['x-request-id']).toBeTruthy();
    expect(answer.headers['cache-control']).toBe('no-store');
    const document = JSON.parse(decoded(answer).toString('utf8'));
    expect(document.data.id).toBe(JSON.parse(plain.bytes.toString('utf8')).data.id);
  });

  it('a large error answer is compressed and decodes to a JSON:API error document', async () => {
    // Twenty malformed query parameters: twenty errors, over 1 KiB.
    const query = Array.from({ length: 20 }, (_, i) => `p${i}=a%01b`).join('&');
    const answer = await raw(`/v3/orgs/${orgId}/assets/equipment-manufacturers?${query}`, {
      authorization: `Bearer ${token}`,
      'accept-encoding': 'br',
    });
    expect(answer.status).toBe(400);
    expectEncoded(answer, 'br');
    expect(answer.headers['content-type']).toBe('application/vnd.api+json');
    const document = JSON.parse(decoded(answer).toString('utf8'));
    expect(document.errors).toHaveLength(20);
    expect(document.errors[0]).toMatchObject({ status: '400', source: { parameter: 'p0' } });
  });
});
