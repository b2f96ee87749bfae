/**
 * The baselines the import and export paths are measured against: the least code that moves the same
 * items through DynamoDB. Each is what a hand-written script would do, with nothing of the service's.
 */
import {
  BatchWriteCommand,
  type BatchWriteCommandOutput,
  QueryCommand,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { locations, referenceClaim } from '#functions/places/definitions';
import { readRows } from '#functions/places/location-imports/writes';
import { documents, tableName } from '#shared/data/clients';
import { newRecord } from '#shared/engine/record-writes';

/**
 * The items an import writes for rows `from` to `to` of a CSV file, here in another organisation: each
 * location (its address and point too, so its geohash index entry) and the claim on its reference.
 */
export const locationItemsOf = (csv: string, orgId: string, from = 0, to = Number.POSITIVE_INFINITY) => {
  const now = new Date();
  return readRows(csv)
    .valid.slice(from, to)
    .flatMap((row) => {
      const location = newRecord(locations, orgId, { attributes: row.attributes }, now);
      return [location, { ...referenceClaim(orgId, row.reference), holder_id: location.id }];
    }) as unknown as Record<string, unknown>[];
};

/** Items, 25 per BatchWriteItem, 4 calls in flight, `UnprocessedItems` sent again; the calls made. */
export const bareBatchWrite = async (items: readonly Record<string, unknown>[]) => {
  let calls = 0;
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const start = next;
      next += 25;
      let pending = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        calls++;
        const out: BatchWriteCommandOutput = await documents.send(
          new BatchWriteCommand({ RequestItems: { [tableName]: pending } }),
        );
        pending = (out.UnprocessedItems?.[tableName] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return calls;
};

/**
 * Every item of one partition, whole (no projection), one page after another as a paged read must: the
 * items read and the calls made. The items are counted, not kept, as an export streaming them to a file
 * would. `limit` items a page: on DynamoDB Local a page without one (up to 1 MB) reads the whole rest of
 * the partition before it cuts the page, so paging a partition costs the square of its size (100,000
 * locations: 234 s, 427 rows/s, against 8 s for 50,000 at 2,000 a page); DynamoDB itself stops at 1 MB.
 */
export const bareQueryLoop = async (pk: string, limit: number) => {
  let items = 0;
  let calls = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    calls++;
    const out: QueryCommandOutput = await documents.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        Limit: limit,
        ExclusiveStartKey,
      }),
    );
    items += out.Items?.length ?? 0;
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return { items, calls };
};
