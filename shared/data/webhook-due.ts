/**
 * The index of webhook deliveries due for an attempt, across organisations: a sparse part of `gsi1`. A
 * delivery waiting for an attempt carries `gsi1pk = WEBHOOK-DUE#<shard>` and `gsi1sk =
 * <next attempt, ISO 8601>#<delivery id>`; one that succeeded or gave up carries neither, so the index
 * holds only work to do. Shards (by the delivery id's last hex digit) spread a burst of deliveries over
 * several partitions; the retry runner reads every shard from the oldest due entry up to now.
 */

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, indexKeysFrom, partitionFrom } from './access-patterns';
import { documents, tableName } from './clients';

export const DUE_SHARDS = 4;

const shardOf = (id: string) => Number.parseInt(id.slice(-1), 16) % DUE_SHARDS;

/** The index keys of a delivery due at `at` (epoch ms). */
const keys = declareAccessPatterns('data/webhook-due', {
  due: {
    index: 'gsi1',
    pk: 'WEBHOOK-DUE#{shard}',
    sk: '{due}#{id}',
    about:
      'a webhook delivery while an attempt is due: shard the last hex digit of its id mod 4, due its next attempt (ISO 8601); removed once delivered or failed (a sparse due index)',
  },
});
export const dueKeys = (id: string, at: number) =>
  indexKeysFrom(keys.due, { shard: String(shardOf(id)), due: new Date(at).toISOString(), id });

export interface DueEntry {
  pk: string;
  sk: string;
  org_id: string;
  id: string;
}

/** Up to `limit` deliveries due at `now` or before, oldest first in each shard (keys only are needed). */
export const dueDeliveries = async (now: number, limit: number): Promise<DueEntry[]> => {
  const shards = await Promise.all(
    Array.from({ length: DUE_SHARDS }, async (_, shard) => {
      const out = await documents.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :due AND gsi1sk <= :now',
          ExpressionAttributeValues: {
            ':due': partitionFrom(keys.due, { shard: String(shard) }),
            ':now': `${new Date(now).toISOString()}#~`,
          },
          ProjectionExpression: 'pk, sk, org_id, id',
          Limit: limit,
        }),
      );
      return (out.Items ?? []) as DueEntry[];
    }),
  );
  return shards.flat().slice(0, limit);
};
