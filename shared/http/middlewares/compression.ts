/**
 * Compresses large answers for clients that accept it (issue 39): API Gateway's HTTP APIs compress
 * nothing, and the OpenAPI document (2.39 MB) and the docs page's renderer (1.7 MB) went out as they were.
 *
 * - An answer of at least `COMPRESS_FROM_BYTES` is encoded with brotli or gzip, whichever the request's
 *   `Accept-Encoding` rates higher (brotli on a tie: `accept-encoding.ts`), and carries `Vary:
 *   Accept-Encoding` whether it was encoded or not, since another client may be answered otherwise.
 *   `Content-Length` is the encoded length; the body travels base64 with `isBase64Encoded`, which is how
 *   API Gateway takes binary bodies from Lambda (and decodes them for the client).
 * - Smaller answers, answers without a body (204, 304) and answers already encoded go as they are.
 * - An answer any cache may keep (`Cache-Control: public`: the documents and the docs page's files) is
 *   the same for every caller, so its encoded form is kept per container and encoded once; nothing a
 *   caller's credentials chose is kept.
 *
 * It runs after everything else has shaped the answer, errors included, and after the idempotency record
 * has kept it as it was (json-api-handler.ts), so a replay is encoded for whoever asks again.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type ContentCoding, preferredCoding } from '../accept-encoding';
import type { ApiMiddleware } from '../api-context';

/**
 * 1 KiB, as CloudFront's own compression starts at 1,000 bytes: below it the answer and its headers fit
 * in one TCP segment either way, and the ~20 bytes of a coding's framing outweigh what it saves.
 */
export const COMPRESS_FROM_BYTES = 1024;

/**
 * Brotli at quality 5: the OpenAPI document in 40 KB in about the time gzip's default level takes for
 * 82 KB (docs/performance.md); quality 11 takes seconds.
 */
const BROTLI_QUALITY = 5;

const encoders: Record<ContentCoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => promisify(gzip)(body),
};

/** Public answers encoded in this container, by coding and body; a handful of files, so a few entries. */
const KEPT_MAX = 16;
const kept = new Map<string, Map<string, string>>();

const keep = (coding: ContentCoding, body: string, encoded: string) => {
  const forCoding = kept.get(coding) ?? new Map<string, string>();
  kept.set(coding, forCoding);
  if (forCoding.size >= KEPT_MAX) forCoding.delete(forCoding.keys().next().value as string);
  forCoding.set(body, encoded);
};

type Headers = NonNullable<APIGatewayProxyStructuredResultV2['headers']>;

const header = (headers: Headers, name: string) =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

const without = (headers: Headers, ...names: string[]): Headers =>
  Object.fromEntries(Object.entries(headers).filter(([key]) => !names.includes(key.toLowerCase())));

/** `Vary` with `Accept-Encoding` added to whatever the answer already varies on. */
const varyWithEncoding = (headers: Headers): string => {
  const before = header(headers, 'vary');
  const names = String(before ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.some((name) => name.toLowerCase() === 'accept-encoding' || name === '*')
    ? names.join(', ')
    : [...names, 'Accept-Encoding'].join(', ');
};

const encoded = async (coding: ContentCoding, body: string, shared: boolean): Promise<string> => {
  const known = shared ? kept.get(coding)?.get(body) : undefined;
  if (known !== undefined) return known;
  const out = (await encoders[coding](Buffer.from(body, 'utf8'))).toString('base64');
  if (shared) keep(coding, body, out);
  return out;
};

type Apply = NonNullable<ApiMiddleware['after']>;

export const compression = (): ApiMiddleware => {
  const apply: Apply = async ({ event, response }) => {
    if (!response?.body || response.isBase64Encoded) return;
    const headers = response.headers ?? {};
    if (header(headers, 'content-encoding') !== undefined) return;
    if (Buffer.byteLength(response.body) < COMPRESS_FROM_BYTES) return;
    const vary = { Vary: varyWithEncoding(headers) };
    const coding = preferredCoding(event.headers?.['accept-encoding']);
    if (!coding) {
      response.headers = { ...without(headers, 'vary'), ...vary };
      return;
    }
    const shared = /\bpublic\b/i.test(String(header(headers, 'cache-control') ?? ''));
    const body = await encoded(coding, response.body, shared);
    response.body = body;
    response.isBase64Encoded = true;
    response.headers = {
      ...without(headers, 'vary', 'content-length'),
      ...vary,
      'Content-Encoding': coding,
      'Content-Length': String(Buffer.byteLength(body, 'base64')),
    };
  };
  return { after: apply, onError: apply };
};
