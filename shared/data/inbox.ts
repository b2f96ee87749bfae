/**
 * A personal inbox's storage (functions/notifications): items in one user's partition (`INBOX#<user>`),
 * outside every organisation's, read and written only for that user. The notifications area decides what
 * to write; this module only talks to DynamoDB: consistent reads of a few keys, a Query of the arrival
 * order, conditional puts committed together (a state item's version checked, envelopes put if absent),
 * and an envelope's e-mail delivery claimed and settled.
 */
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from './clients';
import { queryItems } from './repository';
import type { ItemKey } from './stored-resource';
import { TRANSACTION_MAX, type WriteOp } from './transaction';

const BATCH_GET_MAX = 100;
const MAX_ATTEMPTS = 8;

/** Items by key with strongly consistent reads (state a write decides on), in chunks of 100. */
export const readConsistently = async <T>(keys: readonly ItemKey[]): Promise<T[]> => {
  const found: T[] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_MAX) {
    let pending: Record<string, unknown>[] | undefined = keys.slice(i, i + BATCH_GET_MAX).map((k) => ({
      pk: k.pk,
      sk: k.sk,
    }));
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      if (attempt === MAX_ATTEMPTS) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
      const out: BatchGetCommandOutput = await documents.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      found.push(...((out.Responses?.[tableName] ?? []) as T[]));
      pending = out.UnprocessedKeys?.[tableName]?.Keys;
    }
  }
  return found;
};

/** A put in an inbox: if absent (`new`), or only over the version it was read at (`version`). */
export type InboxPut = ItemKey & Record<string, unknown> & { version: number };

/**
 * An item a transaction makes or keeps without a condition: attributes set to what every writer sets
 * them to (the same each time), and numbers added to. A digest window, which each envelope's line joins.
 */
export interface InboxUpsert extends ItemKey {
  set: Record<string, unknown>;
  add: Record<string, number>;
}

const upsertOf = ({ pk, sk, set, add }: InboxUpsert) => {
  const names = [...Object.keys(set), ...Object.keys(add)];
  const name = (attribute: string) => `#a${names.indexOf(attribute)}`;
  const value = (attribute: string) => `:v${names.indexOf(attribute)}`;
  return {
    Update: {
      TableName: tableName,
      Key: { pk, sk },
      UpdateExpression: [
        `SET ${Object.keys(set)
          .map((a) => `${name(a)} = ${value(a)}`)
          .join(', ')}`,
        ...(Object.keys(add).length > 0
          ? [
              `ADD ${Object.keys(add)
                .map((a) => `${name(a)} ${value(a)}`)
                .join(', ')}`,
            ]
          : []),
      ].join(' '),
      ExpressionAttributeNames: Object.fromEntries(names.map((a) => [name(a), a])),
      ExpressionAttributeValues: Object.fromEntries(names.map((a) => [value(a), a in set ? set[a] : add[a]])),
    },
  };
};

/**
 * Commits puts together, each conditional: a `version` 1 item must be absent, a later one must stand at
 * `version - 1`; and any upserts beside them, unconditional. Answers false when a condition failed
 * (something was there, or moved since it was read): nothing was written, and the caller reads again. At
 * most 100 items, one op each.
 */
export const putTogether = async (
  puts: readonly InboxPut[],
  upserts: readonly InboxUpsert[] = [],
): Promise<boolean> => {
  if (puts.length + upserts.length > TRANSACTION_MAX)
    throw new Error(`${puts.length + upserts.length} items in one transaction`);
  try {
    await documents.send(
      new TransactWriteCommand({
        ClientRequestToken: randomUUID(),
        TransactItems: [
          ...puts.map((item) => ({
            Put: {
              TableName: tableName,
              Item: item,
              ...(item.version <= 1
                ? { ConditionExpression: 'attribute_not_exists(pk)' }
                : {
                    ConditionExpression: '#version = :before',
                    ExpressionAttributeNames: { '#version': 'version' },
                    ExpressionAttributeValues: { ':before': item.version - 1 },
                  }),
            },
          })),
          ...upserts.map(upsertOf),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionCanceledException) return false;
    throw error;
  }
};

/**
 * A put of an inbox item's next version as a transaction's op, refused unless it stands at `version - 1`:
 * for a write that commits inbox items beside a tenant record and its event (an acknowledgement).
 */
export const versionedPutOp = (item: InboxPut): WriteOp => ({
  item: {
    Put: {
      TableName: tableName,
      Item: item,
      ConditionExpression: '#version = :before',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':before': item.version - 1 },
    },
  },
});

/**
 * The items of an inbox partition on one local index between two sort values (inclusive), in index
 * order or reversed, up to `limit`, after `after` (the last item's index value and `sk`).
 */
export const queryInbox = async <T>(
  pk: string,
  range: {
    index: 'lsi1';
    from: string;
    to: string;
    descending: boolean;
    limit?: number;
    after?: { value: string; sk: string };
  },
): Promise<T[]> =>
  queryItems<T>(
    {
      IndexName: range.index,
      KeyConditionExpression: '#pk = :pk AND #index BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#pk': 'pk', '#index': range.index },
      ExpressionAttributeValues: { ':pk': pk, ':from': range.from, ':to': range.to },
      ScanIndexForward: !range.descending,
      ...(range.limit !== undefined && { Limit: range.limit }),
    },
    range.limit,
    range.after && { pk, sk: range.after.sk, [range.index]: range.after.value },
  );

/**
 * Claims an envelope's e-mail: true only for the one caller that found its e-mail delivery still pending
 * and unclaimed (one conditional UpdateItem). The version moves, so an inbox write that read the envelope
 * before is sent round again rather than putting the claim back.
 */
export const claimEmail = async (key: ItemKey, at: string): Promise<boolean> => {
  try {
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET email_claimed_at = :at, version = version + :one',
        ConditionExpression:
          'attribute_exists(pk) AND attribute_not_exists(email_claimed_at) AND attributes.deliveries.email.#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':at': at, ':one': 1, ':pending': 'pending' },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

/** An envelope's e-mail delivery as it ended (sent or failed), its version moved. */
export const settleEmail = async (key: ItemKey, delivery: Record<string, string>): Promise<void> => {
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: key,
      UpdateExpression: 'SET attributes.deliveries.email = :delivery, version = version + :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':delivery': delivery, ':one': 1 },
    }),
  );
};
