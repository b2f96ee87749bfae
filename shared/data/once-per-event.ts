/**
 * Writes a stream consumer makes once per event, safe when the stream hands an event over again (at
 * least once), even after later ones:
 * - `putUnlessPresent`: an item keyed by the event (its id in the key), written alone, only if absent;
 * - `pastMark`: a transaction op updating an item that many events move (a subject's history count and
 *   state) only if the event is later in their order than the item's `mark`, which it then becomes: an
 *   event at or below the mark moved it before (or is stale) and is refused.
 * A put alone rather than in a transaction: a transaction bills every item twice, and the entry is the
 * largest item a consumer writes.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from './clients';
import { inScope, type Scope } from './scope';
import type { ItemKey } from './stored-resource';
import { type WriteOp, WriteRefused } from './transaction';

/** Writes a tenant item unless its key is taken; false when it was (the event was handled before). */
export const putUnlessPresent = async <Item extends ItemKey & { org_id: string }>(
  scope: Scope,
  item: Item,
): Promise<boolean> => {
  if (!inScope(scope, item.org_id)) throw new WriteRefused('out-of-scope');
  return documents
    .send(
      new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
    )
    .then(
      () => true,
      (error: unknown) => {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      },
    );
};

/** What one event does to a marked item: top-level names set or removed, numbers added to. */
export interface MarkedUpdate {
  set?: Record<string, unknown>;
  remove?: readonly string[];
  add?: Record<string, number>;
}

/**
 * An op (for `commit`) applying `update` to a tenant item, created at need, and setting its `mark` to
 * `mark`, refused (`WriteRefused` 'stale' at this op) unless the item has no mark or a lower one. Marks
 * compare as strings: the caller makes them sort in its order.
 */
export const pastMark = (
  scope: Scope,
  key: ItemKey & { orgId: string },
  mark: string,
  { set = {}, remove = [], add = {} }: MarkedUpdate,
): WriteOp => {
  if (!inScope(scope, key.orgId)) throw new WriteRefused('out-of-scope');
  const names: Record<string, string> = { '#mark': 'mark', '#org': 'org_id' };
  const values: Record<string, unknown> = { ':mark': mark, ':org': key.orgId };
  /** `#aN` for the name, `:aN` for its value (if any). */
  const named = (name: string, value?: unknown) => {
    const at = `a${Object.keys(names).length}`;
    names[`#${at}`] = name;
    if (value !== undefined) values[`:${at}`] = value;
    return at;
  };
  const sets = [
    '#mark = :mark',
    '#org = :org',
    ...Object.entries(set)
      .map(([n, v]) => named(n, v))
      .map((a) => `#${a} = :${a}`),
  ];
  const adds = Object.entries(add)
    .map(([n, by]) => named(n, by))
    .map((a) => `#${a} :${a}`);
  const removes = remove.map((n) => `#${named(n)}`);
  return {
    item: {
      Update: {
        TableName: tableName,
        Key: { pk: key.pk, sk: key.sk },
        UpdateExpression: [
          `SET ${sets.join(', ')}`,
          adds.length > 0 && `ADD ${adds.join(', ')}`,
          removes.length > 0 && `REMOVE ${removes.join(', ')}`,
        ]
          .filter(Boolean)
          .join(' '),
        ConditionExpression: 'attribute_not_exists(#mark) OR #mark < :mark',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  };
};
