/**
 * Due entries in the shapes written before the one due index (issue 40, item 6), carried over to it by the
 * due-work runner, so a deployed table's pending webhook retries, job restarts, closing-time sign-outs and
 * expiry warnings still run at their time. Three shapes, each in four shards:
 * - a job's state carrying `gsi1pk = JOBS-DUE#<shard>`, `gsi1sk = <lease end>#<job id>`;
 * - a webhook delivery carrying `gsi1pk = WEBHOOK-DUE#<shard>`, `gsi1sk = <next attempt>#<delivery id>`;
 * - a schedule entry item `SCHEDULE#<shard>` / `<due>#<kind>#<record id>` (`kind`, `org_id`, `id`, `due`,
 *   `data`).
 *
 * Each run reads a page of each shard and rewrites every entry found in the new shape, once: the two
 * items that carry their own keys move them in one conditional update (refused if the keys moved since,
 * by another run or by the item's own next write); a schedule entry is removed, on condition it is still
 * there, in the transaction that puts its entry item, so two runners never make two. The entry item's
 * sort key is the old entry's (`<due>#<kind>#<id>` both), so a record that names its old entry in
 * `schedule` still recognises it as current; the change that makes it moot removes the old key (long gone)
 * and its work finds it moot when it runs, as it does for any entry its record no longer names.
 *
 * No migration runner exists yet (issue 42). Remove this module and its call in the runner once its
 * Queries have found nothing for a release (the runner logs each run that carried entries over).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, partitionFrom } from './access-patterns';
import { documents, tableName } from './clients';
import { type DueEntry, type DueFilter, dueEntry, dueEntryOp, dueKeys } from './due-work';
import { JOB_DUE_KIND } from './job-keys';
import { scopeOf, systemActor } from './scope';
import { commit, WriteRefused } from './transaction';

/** The former shapes' shards (the last hex digit of the record's id mod 4, as the due index's). */
const FORMER_SHARDS = 4;
/** Entries one run carries over from each shard of each shape: the rest wait for the next run. */
const PAGE = 100;

type Item = Record<string, unknown>;

const CARRIED_OVER =
  'carried over to the due index, read only until this module is removed (issue 40, item 6)';
const former = /* @__PURE__ */ declareAccessPatterns('data/former-due-entries', {
  'job-due': {
    index: 'gsi1',
    pk: 'JOBS-DUE#{shard}',
    sk: '{due}#{job_id}',
    about: `former: on a job's state while queued or leased, due its lease's end; ${CARRIED_OVER}`,
  },
  'webhook-due': {
    index: 'gsi1',
    pk: 'WEBHOOK-DUE#{shard}',
    sk: '{due}#{id}',
    about: `former: on a webhook delivery while an attempt is due; ${CARRIED_OVER}`,
  },
  'schedule-entry': {
    index: 'table',
    pk: 'SCHEDULE#{shard}',
    sk: '{due}#{kind}#{id}',
    about: `former: a schedule entry item (\`kind\`, \`org_id\`, \`id\`, \`due\`, \`data\`); ${CARRIED_OVER}`,
  },
});

/** The items that carried their own due keys on `gsi1`, and the kind each is due as now. */
const FORMER_INDEXES = [
  { pattern: former['job-due'], kind: JOB_DUE_KIND, idOf: (item: Item) => String(item.job_id) },
  // The webhooks area's kind (functions/webhooks/due-work.ts), named as it is stored.
  { pattern: former['webhook-due'], kind: 'webhook-delivery', idOf: (item: Item) => String(item.id) },
] as const;

/** A page of one former shard: of `gsi1` (an index prefix) or of the table (the schedule's partitions). */
const page = async (key: 'gsi1pk' | 'pk', value: string, { orgId }: DueFilter) => {
  const out = await documents.send(
    new QueryCommand({
      TableName: tableName,
      ...(key === 'gsi1pk' && { IndexName: 'gsi1' }),
      KeyConditionExpression: `${key} = :shard`,
      ExpressionAttributeValues: { ':shard': value, ...(orgId && { ':org': orgId }) },
      // One organisation's, for a test moving the clock for its own records (as `dueEntries`).
      ...(orgId ? { FilterExpression: 'org_id = :org' } : { Limit: PAGE }),
    }),
  );
  return (out.Items ?? []) as Item[];
};

/** Moves an item's own due keys to the due index, unless they moved since they were read. */
const moveKeys = async (item: Item, kind: string, id: string): Promise<boolean> => {
  const due = Date.parse(String(item.gsi1sk).split('#')[0] ?? '');
  const keys = dueKeys(kind, id, due);
  try {
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: 'SET gsi1pk = :pk, gsi1sk = :sk',
        ConditionExpression: 'gsi1pk = :formerPk AND gsi1sk = :formerSk',
        ExpressionAttributeValues: {
          ':pk': keys.gsi1pk,
          ':sk': keys.gsi1sk,
          ':formerPk': item.gsi1pk,
          ':formerSk': item.gsi1sk,
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

/** Replaces a schedule entry with its entry item, unless another run took it first. */
const replaceEntry = async (item: Item): Promise<boolean> => {
  const orgId = String(item.org_id);
  const entry = dueEntry(String(item.kind), orgId, String(item.id), Date.parse(String(item.due)), {
    ...(item.data !== undefined && { data: item.data as DueEntry['data'] }),
  });
  const taken = {
    item: {
      Delete: {
        TableName: tableName,
        Key: { pk: item.pk, sk: item.sk },
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
  };
  try {
    await commit(scopeOf([orgId], undefined, systemActor('due-work')), [taken, dueEntryOp(entry)]);
    return true;
  } catch (error) {
    if (error instanceof WriteRefused && error.code === 'stale') return false;
    throw error;
  }
};

/**
 * Carries over a page of each former shard, every shape and shard at once; says how many entries moved
 * (an entry another run or its own write moved first is not counted).
 */
export const carryOverFormerDueEntries = async (only: DueFilter = {}): Promise<number> => {
  const shards = Array.from({ length: FORMER_SHARDS }, (_, shard) => shard);
  const moved = await Promise.all([
    ...FORMER_INDEXES.flatMap(({ pattern, kind, idOf }) =>
      shards.map(async (shard) => {
        let count = 0;
        for (const item of await page('gsi1pk', partitionFrom(pattern, { shard: String(shard) }), only))
          if (await moveKeys(item, kind, idOf(item))) count += 1;
        return count;
      }),
    ),
    ...shards.map(async (shard) => {
      let count = 0;
      const partition = partitionFrom(former['schedule-entry'], { shard: String(shard) });
      for (const item of await page('pk', partition, only)) if (await replaceEntry(item)) count += 1;
      return count;
    }),
  ]);
  return moved.reduce((sum, n) => sum + n, 0);
};
