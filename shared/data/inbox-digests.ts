/**
 * A digest window's storage (functions/notifications, `digest-*.ts`): the window item in its user's inbox
 * partition is the digest's due-work entry and the claim of its one e-mail; its lines sit beside it. This
 * module only talks to DynamoDB: the lines read in one Query, the window claimed once (a conditional
 * UpdateItem), what was sent recorded, each line's envelope settled and the line removed in transactions
 * of at most 100 items, and the window finished.
 */
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from './clients';
import { queryItems } from './repository';
import type { ItemKey } from './stored-resource';
import { TRANSACTION_MAX } from './transaction';

/** The items of one inbox partition whose sort key begins with `prefix`, in key order, read consistently. */
export const queryByPrefix = <T>(pk: string, prefix: string): Promise<T[]> =>
  queryItems<T>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
    ConsistentRead: true,
  });

const conditionally = async (write: Promise<unknown>): Promise<boolean> => {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

/**
 * Claims a window for one run: true only for the one caller that found it unclaimed and holding exactly
 * the lines it read (`lines`), so a line written since the read sends the run round again.
 */
export const claimWindow = (key: ItemKey, claim: object, lines: number): Promise<boolean> =>
  conditionally(
    documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET #claim = :claim',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#claim) AND #lines = :lines',
        ExpressionAttributeNames: { '#claim': 'claim', '#lines': 'lines' },
        ExpressionAttributeValues: { ':claim': claim, ':lines': lines },
      }),
    ),
  );

/** What the claimed run's e-mail became (sent, failed, or none to send), on the claim. */
export const recordWindowDelivery = async (key: ItemKey, delivery: Record<string, string>): Promise<void> => {
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: key,
      UpdateExpression: 'SET #claim.delivery = :delivery',
      ConditionExpression: 'attribute_exists(#claim)',
      ExpressionAttributeNames: { '#claim': 'claim' },
      ExpressionAttributeValues: { ':delivery': delivery },
    }),
  );
};

/** One line settled: its envelope's e-mail delivery as it ended (the version moved), and the line removed. */
export interface SettledLine {
  envelope: ItemKey;
  line: ItemKey;
  delivery: Record<string, string>;
}

/** Settles lines in transactions of at most 100 items (50 lines), one after another. */
export const settleLines = async (lines: readonly SettledLine[]): Promise<void> => {
  const perTransaction = TRANSACTION_MAX / 2;
  for (let i = 0; i < lines.length; i += perTransaction)
    await documents.send(
      new TransactWriteCommand({
        ClientRequestToken: randomUUID(),
        TransactItems: lines.slice(i, i + perTransaction).flatMap(({ envelope, line, delivery }) => [
          {
            Update: {
              TableName: tableName,
              Key: { pk: envelope.pk, sk: envelope.sk },
              UpdateExpression: 'SET attributes.deliveries.email = :delivery, version = version + :one',
              // Never a stub: an envelope outlives its window (90 days against a day).
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':delivery': delivery, ':one': 1 },
            },
          },
          { Delete: { TableName: tableName, Key: { pk: line.pk, sk: line.sk } } },
        ]),
      }),
    );
};

/**
 * Ends a claimed window: removed where it holds no more lines than were claimed; else (a line arrived
 * after the claim) its claim is released and those lines taken off its count, so it is due again, now,
 * for the rest.
 */
export const finishWindow = async (key: ItemKey, claimed: number): Promise<void> => {
  const removed = await conditionally(
    documents.send(
      new DeleteCommand({
        TableName: tableName,
        Key: key,
        ConditionExpression: '#lines = :claimed',
        ExpressionAttributeNames: { '#lines': 'lines' },
        ExpressionAttributeValues: { ':claimed': claimed },
      }),
    ),
  );
  if (removed) return;
  // Gone already (a re-run of a finished window): nothing to release.
  await conditionally(
    documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'REMOVE #claim ADD #lines :taken',
        ConditionExpression: 'attribute_exists(#claim)',
        ExpressionAttributeNames: { '#claim': 'claim', '#lines': 'lines' },
        ExpressionAttributeValues: { ':taken': -claimed },
      }),
    ),
  );
};
