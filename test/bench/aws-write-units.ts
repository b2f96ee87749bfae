/**
 * Write units by AWS's per-item rule, which DynamoDB Local does not follow (it under-reports a
 * transaction's items; the id directory's entry did not show). Each item written costs one unit per
 * started kilobyte of the larger of the item before and after the write (a put, an update, a delete
 * alike), at least one; twice that inside a transaction. Each index the item is in (before or after)
 * costs the same once more, non-transactionally, and twice when its key moved (the old entry removed,
 * the new one put): the indexes project ALL, so an entry is the item's size. A transaction's
 * ConditionCheck is counted as a write of its item (an upper bound). Sizes are DynamoDB's
 * (`checkItem`, the rules the growth table measures by), read with a consistent GetItem of each key
 * before and after the call.
 */
import {
  type AttributeValue,
  type DynamoDBClient,
  GetItemCommand,
  type TransactWriteItem,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { checkItem } from '#shared/data/storage-limits';
import { tableDefinition } from '#shared/data/table-definition';

type Item = Record<string, AttributeValue>;

interface Written {
  table: string;
  key: Item;
  transactional: boolean;
}

const KB = 1024;
const keyOf = (item: Item): Item => ({
  [tableDefinition.partitionKey]: item[tableDefinition.partitionKey] as AttributeValue,
  [tableDefinition.sortKey]: item[tableDefinition.sortKey] as AttributeValue,
});

/** The items one write call touches, by its input's shape (already marshalled). */
export const writtenItems = (input: Record<string, unknown>): Written[] => {
  const typed = input as {
    TableName?: string;
    Item?: Item;
    Key?: Item;
    TransactItems?: TransactWriteItem[];
    RequestItems?: Record<string, WriteRequest[]>;
  };
  if (typed.TransactItems)
    return typed.TransactItems.flatMap((op) => {
      const one = op.Put ?? op.Update ?? op.Delete ?? op.ConditionCheck;
      if (!one) return [];
      const key = op.Put ? keyOf(op.Put.Item ?? {}) : ((one as { Key?: Item }).Key ?? {});
      return [{ table: one.TableName ?? '', key, transactional: true }];
    });
  if (typed.RequestItems)
    return Object.entries(typed.RequestItems).flatMap(([table, requests]) =>
      requests.map((r) => ({
        table,
        key: r.PutRequest ? keyOf(r.PutRequest.Item ?? {}) : (r.DeleteRequest?.Key ?? {}),
        transactional: false,
      })),
    );
  const key = typed.Item ? keyOf(typed.Item) : typed.Key;
  return key ? [{ table: typed.TableName ?? '', key, transactional: false }] : [];
};

const INDEX_KEYS: readonly (readonly string[])[] = [
  ...tableDefinition.localIndexes.map((l) => [l.sortKey]),
  ...tableDefinition.globalIndexes.map((g) => [g.partitionKey, g.sortKey]),
];

const indexKey = (item: Item | undefined, attributes: readonly string[]) =>
  item && attributes.every((a) => item[a] !== undefined)
    ? JSON.stringify(attributes.map((a) => item[a]))
    : null;

/** One item's units from its states before and after the write. */
export const unitsOf = (before: Item | undefined, after: Item | undefined, transactional: boolean) => {
  const kilobytes = Math.max(1, Math.ceil(Math.max(checkItem(before), checkItem(after)) / KB));
  const indexed = INDEX_KEYS.reduce((sum, attributes) => {
    const [was, now] = [indexKey(before, attributes), indexKey(after, attributes)];
    return sum + (was === null && now === null ? 0 : was !== null && now !== null && was !== now ? 2 : 1);
  }, 0);
  return kilobytes * (transactional ? 2 : 1) + kilobytes * indexed;
};

/** Reads an item as it is now (consistently), through a client this meter does not count. */
const currentItem = async (client: DynamoDBClient, { table, key }: Written) =>
  (await client.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;

/**
 * Measures a write call by AWS's rule: the items it touches, read before and after. `send` is the call
 * itself; a call that fails is billed nothing here (it is the request's own error).
 */
export const metered = async <Out>(
  client: DynamoDBClient,
  input: Record<string, unknown>,
  send: () => Promise<Out>,
): Promise<{ out: Out; units: number; byItem: { key: Item; units: number }[] }> => {
  const items = writtenItems(input);
  const before = await Promise.all(items.map((item) => currentItem(client, item)));
  const out = await send();
  const after = await Promise.all(items.map((item) => currentItem(client, item)));
  const byItem = items.map((item, i) => ({
    key: item.key,
    units: unitsOf(before[i], after[i], item.transactional),
  }));
  return { out, units: byItem.reduce((sum, { units }) => sum + units, 0), byItem };
};
