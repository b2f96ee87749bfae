/**
 * What the migration runner keeps in the table (`shared/engine/migrations.ts` runs the areas' steps): the
 * schema version, one item naming the highest migration finished (every lower one finished before it),
 * and each migration's progress, one item holding where its walk of the table stopped. Both are internal
 * and outside every tenant partition. The walk is a Scan, paged: a migration is not a request, and the
 * records it fixes are the ones no index finds (that is what is wrong with them).
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, keyFrom } from './access-patterns';
import { documents, tableName } from './clients';
import type { PageKey } from './repository';
import { countedIn, countMoves, type ItemKey, keyId, type StoredResource } from './stored-resource';
import type { WriteOp } from './transaction';

const keys = /* @__PURE__ */ declareAccessPatterns('data/migrations', {
  schema: {
    index: 'table',
    pk: 'SCHEMA',
    sk: 'VERSION',
    about: "the table's schema version (internal): the highest migration finished, every lower one before it",
  },
  progress: {
    index: 'table',
    pk: 'MIGRATION#{version}',
    sk: 'STATE',
    about: "a migration's progress (internal): where its walk of the table stopped, items read and changed",
  },
});

const schemaKey = keyFrom(keys.schema, {});
const progressKey = (version: number) => keyFrom(keys.progress, { version: String(version) });

const isConditionFailure = (error: unknown) =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/** A transaction refused because one of its conditions failed (the record changed since it was read). */
const isCancelledByCondition = (error: unknown) =>
  error instanceof TransactionCanceledException &&
  (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed');

/** The table's schema version: 0 for a table no migration has finished on. */
export const readSchemaVersion = async (): Promise<number> => {
  const out = await documents.send(
    new GetCommand({ TableName: tableName, Key: schemaKey, ConsistentRead: true }),
  );
  return (out.Item?.version as number | undefined) ?? 0;
};

/** Records `version` as the schema's, never lowering it (two runners finishing out of order). */
export const recordSchemaVersion = async (version: number, now: Date): Promise<void> => {
  try {
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: schemaKey,
        UpdateExpression: 'SET version = :version, migrated_at = :at',
        ConditionExpression: 'attribute_not_exists(version) OR version < :version',
        ExpressionAttributeValues: { ':version': version, ':at': now.toISOString() },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

export interface MigrationProgress {
  version: number;
  name: string;
  /** Where the walk resumes: DynamoDB's own key; absent before the first page and after the last. */
  checkpoint?: PageKey;
  /** Items the walk has read, and records it changed. */
  read: number;
  changed: number;
  /** Pages saved: each save names the one it follows, so two runners never both move one walk on. */
  seq: number;
  finished_at?: string;
}

export const readProgress = async (version: number): Promise<MigrationProgress | null> => {
  const out = await documents.send(
    new GetCommand({ TableName: tableName, Key: progressKey(version), ConsistentRead: true }),
  );
  return (out.Item as MigrationProgress | undefined) ?? null;
};

/** Another runner moved the walk on since this one read it: this one stops. */
export class ProgressTaken extends Error {}

/** Saves `next`, refused unless the stored progress is the one `next` follows (`seq - 1`, or none). */
export const saveProgress = async (next: MigrationProgress): Promise<void> => {
  try {
    await documents.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...progressKey(next.version), ...next },
        ConditionExpression: next.seq === 1 ? 'attribute_not_exists(seq)' : 'seq = :before',
        ...(next.seq !== 1 && { ExpressionAttributeValues: { ':before': next.seq - 1 } }),
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new ProgressTaken(`Migration ${next.version} moved on elsewhere`);
    throw error;
  }
};

/** Which items a migration walks: a Scan filter over the stored shape. */
export interface ItemSelection {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** One page of the table's items that `select` matches, from `from`, and where the next page starts. */
export const scanPage = async (
  select: ItemSelection,
  from: PageKey | undefined,
  limit: number,
): Promise<{ items: StoredResource[]; read: number; next?: PageKey }> => {
  const out = await documents.send(
    new ScanCommand({
      TableName: tableName,
      FilterExpression: select.expression,
      ...(select.names && { ExpressionAttributeNames: select.names }),
      ...(select.values && { ExpressionAttributeValues: select.values }),
      ExclusiveStartKey: from,
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return {
    items: (out.Items ?? []) as StoredResource[],
    read: out.ScannedCount ?? 0,
    ...(out.LastEvaluatedKey && { next: out.LastEvaluatedKey }),
  };
};

/**
 * Stores a record's migrated shape over the one read, refused (false) if it changed since. No event:
 * a migration changes how a record is kept, not what happened to it, so neither the audit log nor a
 * tenant's webhooks hear of it. Its version moves, as its answers (and their ETag) may differ. Where the
 * counts it is in changed (`counted_before`: one counted before a filter was), its type's counter (or its
 * parent's, `countedIn`) moves with it in one transaction.
 */
export const rewriteRecord = (before: StoredResource, after: StoredResource): Promise<boolean> => {
  const { stored, moves } = countMoves(after, false);
  const counters = new Map<string, CounterAdds>();
  for (const [name, by] of Object.entries(moves)) {
    if (by === 0) continue;
    const at = countedIn(after, name);
    const counter = counters.get(keyId(at.key)) ?? { key: at.key, add: {} };
    counter.add[at.name] = (counter.add[at.name] ?? 0) + by;
    counters.set(keyId(at.key), counter);
  }
  return storeOver(before, stored, [...counters.values()]);
};

/** Numbers a migration adds to a counter item, in the transaction that stores the record they count. */
interface CounterAdds {
  key: ItemKey;
  add: Record<string, number>;
}

/**
 * Stores `after` over `before` with its version moved, only if it is still at the version read (false
 * if not), with the counters' additions in the same transaction when there are any.
 */
const storeOver = async (
  before: StoredResource,
  after: StoredResource,
  counters: readonly CounterAdds[],
): Promise<boolean> => {
  const put = {
    TableName: tableName,
    Item: { ...after, version: before.version + 1 },
    ConditionExpression: 'version = :version',
    ExpressionAttributeValues: { ':version': before.version },
  };
  const added = ({ key, add }: CounterAdds) => {
    const adds = Object.entries(add);
    return {
      Update: {
        TableName: tableName,
        Key: key,
        UpdateExpression: `ADD ${adds.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(adds.map(([name], i) => [`#c${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(adds.map(([, by], i) => [`:c${i}`, by])),
      },
    };
  };
  try {
    if (counters.length === 0) await documents.send(new PutCommand(put));
    else
      await documents.send(
        new TransactWriteCommand({ TransactItems: [{ Put: put }, ...counters.map(added)] }),
      );
    return true;
  } catch (error) {
    if (isConditionFailure(error) || isCancelledByCondition(error)) return false;
    throw error;
  }
};

/**
 * Moves a record to the key it belongs at, every other attribute as it was (its version too: what it
 * answers is unchanged), in one transaction: put at `to` only if absent, deleted where it was only if
 * there. True when it changed something. A record moved before (a page redone, another runner) is gone
 * from where it was: nothing happens. One at both keys was written again at `to` since (a stream event
 * redelivered to newer code): that one stays, and the copy left behind is deleted.
 */
export const moveRecord = async (record: StoredResource, to: ItemKey): Promise<boolean> => {
  const from = { pk: record.pk, sk: record.sk };
  // Where it is already: nothing to move (and the copy-left-behind case below must never delete it).
  if (from.pk === to.pk && from.sk === to.sk) return false;
  try {
    await documents.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: { ...record, ...to },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          { Delete: { TableName: tableName, Key: from, ConditionExpression: 'attribute_exists(pk)' } },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const [put, left] = (error.CancellationReasons ?? []).map((reason) => reason.Code);
    if (left === 'ConditionalCheckFailed') return false;
    if (put !== 'ConditionalCheckFailed') throw error;
  }
  try {
    await documents.send(
      new DeleteCommand({ TableName: tableName, Key: from, ConditionExpression: 'attribute_exists(pk)' }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/**
 * Puts an item that today's writes keep beside a record (a claim, an index entry) and a record stored
 * before lacks: only while the record is there (one deleted meanwhile leaves nothing behind) and only if
 * the item is absent (a run redone, or a write since, has it: nothing is written). True when it put it.
 */
export const putBeside = async (
  record: StoredResource,
  item: ItemKey & Record<string, unknown>,
): Promise<boolean> => {
  try {
    await documents.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: tableName,
              Key: { pk: record.pk, sk: record.sk },
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (isCancelledByCondition(error)) return false;
    throw error;
  }
};

/**
 * Puts an item a record's writes keep and a record stored before lacks, only if it is absent: a write
 * since made it, and that write's item stays (false). Unlike `putBeside`, nothing else is required.
 */
export const putIfAbsent = async (item: ItemKey & Record<string, unknown>): Promise<boolean> => {
  try {
    await documents.send(
      new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/**
 * Stores a record's migrated shape over the one read, as `rewriteRecord` does, and adds to a counter item
 * that counts it beside its type's (a kept collection's count by day) in the same transaction: refused
 * (false) if the record changed since it was read, so a record is counted once however often it is handed.
 */
export const rewriteCounted = (
  before: StoredResource,
  after: StoredResource,
  counter: CounterAdds,
): Promise<boolean> => storeOver(before, after, [counter]);

/**
 * Removes a counter item (its number `count`) that a migration moves elsewhere in the same transaction,
 * only while it holds what was read: so its number is moved once, however often it is handed.
 */
export const takeCounter = (key: ItemKey, count: number | undefined): WriteOp => ({
  item: {
    Delete: {
      TableName: tableName,
      Key: key,
      ConditionExpression: count === undefined ? 'attribute_not_exists(#count)' : '#count = :count',
      ExpressionAttributeNames: { '#count': 'count' },
      ...(count !== undefined && { ExpressionAttributeValues: { ':count': count } }),
    },
  },
});

/**
 * Removes top-level attributes a record no longer keeps (an index entry it has left), to commit beside
 * the ops that carry what they stood for elsewhere (a cost line's amounts into its node's sums): only while
 * those it holds hold what was read, so it happens once however often the record is handed, whatever
 * `keep` ops add to it meanwhile (a Put would wipe that). Its version moves, so a replace read before
 * cannot write them back.
 */
export const dropAttributes = (record: StoredResource, names: readonly string[]): WriteOp => {
  const read = record as unknown as Record<string, unknown>;
  const held = names.filter((name) => read[name] !== undefined);
  if (held.length === 0) throw new Error(`${record.type} ${record.id} holds none of ${names.join(', ')}`);
  return {
    item: {
      Update: {
        TableName: tableName,
        Key: { pk: record.pk, sk: record.sk },
        UpdateExpression: `SET #version = #version + :one REMOVE ${names.map((_, i) => `#d${i}`).join(', ')}`,
        ConditionExpression: held
          .map((name) => `#d${names.indexOf(name)} = :d${names.indexOf(name)}`)
          .join(' AND '),
        ExpressionAttributeNames: {
          '#version': 'version',
          ...Object.fromEntries(names.map((name, i) => [`#d${i}`, name])),
        },
        ExpressionAttributeValues: {
          ':one': 1,
          ...Object.fromEntries(held.map((name) => [`:d${names.indexOf(name)}`, read[name]])),
        },
      },
    },
  };
};

/** Deletes an item nothing reads any more (a consumer's former state): false when it is gone already. */
export const deleteUnread = async (key: ItemKey): Promise<boolean> => {
  try {
    await documents.send(
      new DeleteCommand({
        TableName: tableName,
        Key: { pk: key.pk, sk: key.sk },
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/**
 * Removes top-level attributes nothing reads any more from an item kept without a version (a counter),
 * if the item is there: false when it is gone.
 */
export const removeUnread = async (key: ItemKey, names: readonly string[]): Promise<boolean> => {
  try {
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: key.pk, sk: key.sk },
        UpdateExpression: `REMOVE ${names.map((_, i) => `#r${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#r${i}`, name])),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};
