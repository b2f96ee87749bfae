/**
 * Counts of failed attempts, for throttles that must hold across Lambda instances (the token endpoint's).
 * One item per subject, outside tenant partitions: `FAILURES#<kind>#<SHA-256 of the subject, base64url>`
 * / `FAILURES`, holding `failures` and `expires_at`: the end of the window the first failure opened,
 * which is also the table's TTL attribute, so DynamoDB removes the item some time after it closes.
 * Hashing lets a subject of any length fit DynamoDB's 2,048-byte key limit and keeps what callers typed
 * (client ids, addresses) out of the table. Items are written only on failure; they are read with the
 * caller's other records in one BatchGetItem (`readTogether`).
 */

import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, keyFrom } from './access-patterns';
import { documents, tableName } from './clients';
import type { ItemKey } from './stored-resource';
import { DataUnavailable } from './unavailable';

export interface FailureCount {
  failures: number;
  /** When the window closes, epoch seconds. */
  expires_at: number;
}

const keys = /* @__PURE__ */ declareAccessPatterns('data/failure-counts', {
  failures: {
    index: 'table',
    pk: 'FAILURES#{kind}#{subject_hash}',
    sk: 'FAILURES',
    about:
      "the token endpoint's throttle: kind `client` or `source`, the SHA-256 of the subject (base64url); `failures`, `expires_at` (the window's end, the TTL)",
  },
});
export const failureCountKey = (kind: string, subject: string): ItemKey =>
  keyFrom(keys.failures, { kind, subject_hash: createHash('sha256').update(subject).digest('base64url') });

/** The count of a window still open, or null (no item, or its window closed before TTL removed it). */
export const openCount = (item: unknown, now = Date.now()): FailureCount | null => {
  const count = item as Partial<FailureCount> | null | undefined;
  return typeof count?.failures === 'number' &&
    typeof count.expires_at === 'number' &&
    count.expires_at * 1000 > now
    ? { failures: count.failures, expires_at: count.expires_at }
    : null;
};

/** An update that may be refused by its condition: the new count, or null when refused. */
const conditionalUpdate = async (
  input: Omit<UpdateCommandInput, 'TableName' | 'ReturnValues'>,
): Promise<FailureCount | null> => {
  try {
    const out = await documents.send(
      new UpdateCommand({ ...input, TableName: tableName, ReturnValues: 'ALL_NEW' }),
    );
    const { failures, expires_at } = (out.Attributes ?? {}) as FailureCount;
    return { failures, expires_at };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return null;
    throw error;
  }
};

/**
 * Adds one failure: to the open window if there is one (a conditional ADD), else opening a new window
 * of `windowSeconds` with a count of one (a conditional SET, so two first failures at once open one
 * window between them and the loser adds to it). One UpdateItem, two when a window opens.
 */
export const countFailure = async (
  key: ItemKey,
  windowSeconds: number,
  now = Date.now(),
): Promise<FailureCount> => {
  const at = Math.floor(now / 1000);
  for (let attempt = 0; attempt < 3; attempt++) {
    const added = await conditionalUpdate({
      Key: key,
      UpdateExpression: 'ADD failures :one',
      ConditionExpression: 'expires_at > :now',
      ExpressionAttributeValues: { ':one': 1, ':now': at },
    });
    if (added) return added;
    const opened = await conditionalUpdate({
      Key: key,
      UpdateExpression: 'SET failures = :one, expires_at = :end',
      ConditionExpression: 'attribute_not_exists(expires_at) OR expires_at <= :now',
      ExpressionAttributeValues: { ':one': 1, ':now': at, ':end': at + windowSeconds },
    });
    if (opened) return opened;
  }
  throw new DataUnavailable('A failure count kept changing under concurrent updates');
};
