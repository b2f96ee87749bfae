/**
 * Idempotency records (`Idempotency-Key`, see shared/http/middlewares/idempotency.ts): one item per caller
 * and key, `IDEMPOTENCY#<principal id>#<SHA-256 of the key, base64url>` / `IDEMPOTENCY`, kept 24 hours
 * (`expires_at`, the table's TTL). The key is hashed so a key of any length fits DynamoDB's key limit and
 * what a client typed is not stored; the principal id in the partition keeps two callers' keys apart.
 *
 * Round trips: a first request claims its key with one conditional PutItem and completes it with one
 * UpdateItem (or releases it with one DeleteItem after a 5xx). A repeat costs the one refused PutItem:
 * it returns the record it found (`ReturnValuesOnConditionCheckFailure`), so no GetItem follows.
 *
 * A claim holds the key for a lease, the function's time limit and a margin: a function that dies in
 * flight (killed at its timeout) never releases its claim, so a claim whose lease has ended may be taken
 * by the next request. Completion and release are conditional on the claim's own token, so a request
 * whose lease was taken over cannot overwrite or delete its successor's record.
 */

import { createHash, randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { declareAccessPatterns, keyFrom } from './access-patterns';
import { documents, tableName } from './clients';
import type { ItemKey } from './stored-resource';

/** How long a key and its answer are kept (the draft leaves it to the server; a day outlives any retry). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/**
 * Bodies above this are stored gzipped, so an answer near DynamoDB's 400 KB item limit still fits (write
 * answers are one resource, rarely more than a few KB).
 */
const GZIP_ABOVE_BYTES = 64 * 1024;

/** What a replay answers: the first answer's status, the headers its handler set, and its body. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A key this request holds while it runs. */
export interface IdempotencyClaim {
  key: ItemKey;
  token: string;
}

export type ClaimResult =
  | { outcome: 'claimed'; claim: IdempotencyClaim }
  | { outcome: 'in-flight'; fingerprint: string; leaseEndsAt: number }
  | { outcome: 'done'; fingerprint: string; answer: StoredAnswer };

const keys = /* @__PURE__ */ declareAccessPatterns('data/idempotency', {
  record: {
    index: 'table',
    pk: 'IDEMPOTENCY#{principal_id}#{key_hash}',
    sk: 'IDEMPOTENCY',
    about:
      'an `Idempotency-Key` (its SHA-256, base64url): `state` (`in_flight`, `done`), `fingerprint` (SHA-256 of method, path with query, principal, body), `token` and `lease_until` (epoch ms) while in flight; `status`, `headers`, `body` (or `body_gzip` above 64 KB) when done; `expires_at` 24 h after the claim (the TTL). Never a secret: the kept body has one-time secrets masked and presigned URLs removed',
  },
});
export const idempotencyRecordKey = (principalId: string, key: string): ItemKey =>
  keyFrom(keys.record, {
    principal_id: principalId,
    key_hash: createHash('sha256').update(key).digest('base64url'),
  });

interface StoredRecord {
  state: 'in_flight' | 'done';
  fingerprint: string;
  token?: string;
  lease_until?: number;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  body_gzip?: Uint8Array;
}

const answerOf = (record: StoredRecord): StoredAnswer => ({
  status: record.status ?? 500,
  headers: record.headers ?? {},
  body: record.body_gzip ? gunzipSync(record.body_gzip).toString('utf8') : (record.body ?? ''),
});

/** What a refused claim found: another request's claim still in flight, or a finished answer. */
const resultOf = (record: StoredRecord): ClaimResult =>
  record.state === 'done'
    ? { outcome: 'done', fingerprint: record.fingerprint, answer: answerOf(record) }
    : { outcome: 'in-flight', fingerprint: record.fingerprint, leaseEndsAt: record.lease_until ?? 0 };

/**
 * Claims `key` for this request: one conditional PutItem that succeeds when the key is new, its record
 * has expired (TTL deletion lags), or the claim on it outlived its lease. Otherwise the record found
 * comes back with the refusal.
 */
export const claimIdempotencyKey = async (
  principalId: string,
  key: string,
  fingerprint: string,
  leaseMs: number,
  now = Date.now(),
): Promise<ClaimResult> => {
  const claim: IdempotencyClaim = { key: idempotencyRecordKey(principalId, key), token: randomUUID() };
  try {
    await documents.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...claim.key,
          state: 'in_flight',
          fingerprint,
          token: claim.token,
          lease_until: now + leaseMs,
          expires_at: Math.floor(now / 1000) + IDEMPOTENCY_TTL_SECONDS,
        },
        ConditionExpression:
          'attribute_not_exists(pk) OR expires_at <= :now OR (#state = :in_flight AND lease_until <= :now_ms)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':now': Math.floor(now / 1000),
          ':now_ms': now,
          ':in_flight': 'in_flight',
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { outcome: 'claimed', claim };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException) || !error.Item) throw error;
    return resultOf(unmarshall(error.Item) as StoredRecord);
  }
};

/** Keeps the answer for replays: one UpdateItem, only while this request's claim is the record. */
export const completeIdempotencyKey = async (claim: IdempotencyClaim, answer: StoredAnswer) => {
  const large = Buffer.byteLength(answer.body) > GZIP_ABOVE_BYTES;
  try {
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: claim.key,
        UpdateExpression: `SET #state = :done, #status = :status, headers = :headers, ${large ? 'body_gzip' : 'body'} = :body REMOVE lease_until, #token`,
        ConditionExpression: '#token = :token',
        ExpressionAttributeNames: { '#state': 'state', '#status': 'status', '#token': 'token' },
        ExpressionAttributeValues: {
          ':done': 'done',
          ':status': answer.status,
          ':headers': answer.headers,
          ':body': large ? gzipSync(answer.body) : answer.body,
          ':token': claim.token,
        },
      }),
    );
  } catch (error) {
    // The lease ended and another request took the key: its record is not this request's to change.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
};

/** Frees the key after a failure, so a retry runs: one DeleteItem, only while the claim is this request's. */
export const releaseIdempotencyKey = async (claim: IdempotencyClaim) => {
  try {
    await documents.send(
      new DeleteCommand({
        TableName: tableName,
        Key: claim.key,
        ConditionExpression: '#token = :token',
        ExpressionAttributeNames: { '#token': 'token' },
        ExpressionAttributeValues: { ':token': claim.token },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
};
