/**
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header) on every authenticated write route: the
 * same key with the same request answers what the first answered, without doing it again.
 *
 * - The value is a Structured Field String (`"…"`, RFC 9651 §3.3.3; parameters after it are ignored, as
 *   the format asks of unknown ones), or, since most clients send it so, the same characters bare
 *   (visible ASCII, no space): 1–255 characters either way, else 400 at `source.header`.
 * - Keys belong to the caller (its principal id), so two callers never see each other's answers. The
 *   record is found by the key; the request it answered is told apart by a fingerprint, the SHA-256 of
 *   method, path with query, principal id and body bytes. Another request under a used key is 422; one
 *   while the first is still running is 409 with `Retry-After`.
 * - Every answer below 500 is kept for 24 hours and replayed (status, body, and the headers its handler
 *   set: `Location`, `Content-Type`, …), marked `Idempotent-Replayed: true`. The draft leaves which
 *   outcomes to keep to the server: a 4xx is a judgement of the request, which the same request gets
 *   again (as the payment APIs the draft draws on do); a 5xx, or a failure, is the server's, so the key is
 *   released and a retry runs. One-time secrets are not kept (`replayable-answer.ts`).
 * - Public routes take no key and ignore the header: the token endpoint's answer is a bearer token (not
 *   to be kept) and an exchange can simply be repeated; the SNS receiver deduplicates deliveries by their
 *   MessageId, the key of its own protocol, and SNS sends no such header. GET routes are idempotent.
 *
 * Two middlewares from one factory, because middy runs `before` in the order of `use` and `after` and
 * `onError` in reverse: `outcome`, used before the error middleware, reads the header and the raw body
 * ahead of body parsing, and after the error middleware has rendered any failure keeps (or releases)
 * what the client is answered; `claim`, used after authorisation, claims the key once the caller is known
 * and allowed (a caller without the permission gets its 403 or 404, never a replay). A replay is answered
 * by the handler wrapper (json-api-handler.ts), because a `before` that returns early skips every `after`,
 * the request id and security headers with them.
 *
 * Hand-written rather than `@aws-lambda-powertools/idempotency` 2.35.0, which was weighed: its DynamoDB
 * layer on a table with a sort key keeps every record in one static partition (`idempotency#<function>`)
 * unless its undocumented `getKey` is overridden; its middy middleware hashes the event, which does not
 * hold the caller; it deletes the record on every thrown error, so a 4xx is not kept; it keeps exactly
 * what it returns, so it cannot answer a secret once and keep it masked; 409, 422 and the HTTP replay are
 * ours to write anyway. It adds 44 KB minified (JMESPath 23 KB) to every function bundle, for a state
 * machine of three DynamoDB calls. Its one idea worth having is here: the refused claim returns the record
 * it found, so a replay costs one round trip.
 */
import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { parseItem } from 'structured-headers';
import {
  type ClaimResult,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from '../../data/idempotency';
import { ApiError, ValidationError } from '../../jsonapi/errors';
import type { ApiContext, ApiMiddleware } from '../api-context';
import { log } from '../log';
import { replayableBody } from '../replayable-answer';
import type { Route } from '../route';
import { FUNCTION_TIMEOUT_SECONDS } from '../route';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Marks a replayed answer (the name Stripe, Adyen and others use for it). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_KEY_MAX = 255;

/** A claim outlives the longest the function can run, so a claim still held is a request still running. */
export const LEASE_MS = (FUNCTION_TIMEOUT_SECONDS + 5) * 1000;

/** Authenticated routes that change things; the others ignore the header (see above). */
export const takesIdempotencyKey = (route: Route): boolean => route.method !== 'GET' && route.auth.length > 0;

/** What the idempotency middlewares know of one request, on the Lambda context. */

const source = { header: IDEMPOTENCY_KEY_HEADER };

const invalid = (detail: string) =>
  new ValidationError({ detail: `${IDEMPOTENCY_KEY_HEADER} ${detail}`, source });

const BARE = /^[\x21-\x7e]+$/;

/** The key a header value carries, or a 400 saying what is wrong with it. */
export const parseIdempotencyKey = (value: string): string => {
  const text = value.trim();
  let key: string;
  if (text.startsWith('"')) {
    let item: ReturnType<typeof parseItem>;
    try {
      item = parseItem(text);
    } catch {
      throw invalid(
        'must be one Structured Field String: printable ASCII in double quotes, with \\" and \\\\ escaped.',
      );
    }
    if (typeof item[0] !== 'string') throw invalid('must be a Structured Field String.');
    key = item[0];
  } else {
    if (!BARE.test(text))
      throw invalid(
        'must be printable ASCII: a Structured Field String ("…"), or the key alone without spaces.',
      );
    key = text;
  }
  if (key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX)
    throw invalid(`must hold 1 to ${IDEMPOTENCY_KEY_MAX} characters; this one holds ${key.length}.`);
  return key;
};

export class IdempotencyKeyInFlightError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(409, 'Conflict', {
      code: 'CONFLICT.001',
      detail: `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; retry after the time in Retry-After.`,
      source,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

export class IdempotencyKeyReusedError extends ApiError {
  constructor() {
    super(422, 'Unprocessable content', {
      code: 'IDEMPOTENCY.001',
      detail: `This ${IDEMPOTENCY_KEY_HEADER} was used for another request (method, path, query or body differ); use a new key for a new request.`,
      source,
    });
  }
}

const bodyBytes = (event: APIGatewayProxyEventV2): Buffer =>
  event.body === undefined
    ? Buffer.alloc(0)
    : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');

/** SHA-256 of method, path with query, principal and body; fields cannot run into one another. */
export const requestFingerprint = (
  method: string,
  pathWithQuery: string,
  principalId: string,
  body: Buffer,
): string =>
  createHash('sha256')
    .update(`${method}\n${pathWithQuery}\n${principalId}\n`)
    .update(body)
    .digest('base64url');

const replayOf = (result: Extract<ClaimResult, { outcome: 'done' }>): APIGatewayProxyStructuredResultV2 => ({
  statusCode: result.answer.status,
  headers: {
    ...result.answer.headers,
    'Content-Length': String(Buffer.byteLength(result.answer.body)),
    [REPLAYED_HEADER]: 'true',
  },
  body: result.answer.body,
});

/** The answer as kept: the handler's headers but not its length (a kept body may differ), secrets out. */
const keptAnswer = (response: APIGatewayProxyStructuredResultV2) => {
  const headers = Object.fromEntries(
    Object.entries(response.headers ?? {})
      .filter(([name]) => name.toLowerCase() !== 'content-length')
      .map(([name, value]) => [name, String(value)]),
  );
  const type = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return {
    status: response.statusCode ?? 200,
    headers,
    body: replayableBody(response.body ?? '', type),
  };
};

type Request = Parameters<NonNullable<ApiMiddleware['before']>>[0];

/**
 * Keeps the answer of a request that holds its key, or releases the key after a 5xx or a failure no
 * middleware rendered. A failure to keep is logged, not answered: the work is done and the client gets
 * its answer; the claim then ends with its lease.
 */
const settle = async (request: Request) => {
  const claim = request.context.idempotency?.claim;
  if (!claim) return;
  const response = request.response;
  const status = response?.statusCode ?? 500;
  try {
    if (!response || status >= 500) await releaseIdempotencyKey(claim);
    else await completeIdempotencyKey(claim, keptAnswer(response));
  } catch (error) {
    log.error('Idempotency record not settled', {
      requestId: request.context.requestId,
      route: request.event.routeKey,
      error: (error as Error).name,
      message: (error as Error).message,
    });
  }
};

export const idempotencyKeys = (route: Route): { outcome: ApiMiddleware; claim: ApiMiddleware } => {
  const takesKey = takesIdempotencyKey(route);
  return {
    outcome: {
      before: ({ event, context }) => {
        const value = event.headers?.[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
        // Set on every request, so nothing of another request's can be left on a reused context.
        context.idempotency = undefined;
        if (!takesKey || value === undefined) return;
        context.idempotency = { key: parseIdempotencyKey(value), body: bodyBytes(event) };
      },
      after: settle,
      onError: settle,
    },
    claim: {
      before: async ({ event, context }) => {
        const state = context.idempotency;
        if (!state || !context.principal) return;
        const { method } = event.requestContext.http;
        const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
        const fingerprint = requestFingerprint(
          method,
          `${event.rawPath}${query}`,
          context.principal.id,
          state.body,
        );
        const now = Date.now();
        const result = await claimIdempotencyKey(context.principal.id, state.key, fingerprint, LEASE_MS, now);
        if (result.outcome === 'claimed') {
          state.claim = result.claim;
          return;
        }
        if (result.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError();
        if (result.outcome === 'in-flight')
          throw new IdempotencyKeyInFlightError(Math.max(1, Math.ceil((result.leaseEndsAt - now) / 1000)));
        state.replay = replayOf(result);
      },
    },
  };
};

/** For the handler wrapper: the kept answer to send instead of running the handler, if any. */
export const replayFor = (context: ApiContext) => context.idempotency?.replay;
