/**
 * Work due later, one index for every kind: an item is due when it carries `gsi1pk = DUE#<shard>` and
 * `gsi1sk = <due, ISO 8601>#<kind>#<record id>`, so what is due at a time is one key range per shard,
 * whatever its kind (the shard is the record id's last hex digit mod 4, spreading a burst of sign-ins or
 * deliveries over partitions). The runner (every minute: one EventBridge rule in AWS, one timer in
 * `npm start`) reads the range up to now and hands each entry to its kind (`engine/due-work-runner.ts`).
 *
 * An entry is written in its record's own transaction, in one of two forms:
 * - the record's own item carries the keys, when the record is the work's state and its own conditional
 *   writes move the due time (a job's state under its lease, a webhook delivery's next attempt): one item,
 *   so a renewed lease is still one conditional update;
 * - an entry item beside the record (`dueEntry`: an attendance's automatic sign-out, an award's next
 *   expiry warning, a recurring run), in `ORG#<org>#due-work` keyed like the index, which the record
 *   names in `schedule` so the change that makes it moot removes it.
 *
 * Entry items are one-shot or recurring: a recurring one carries an RFC 5545 `DTSTART;TZID=…` and
 * `RRULE`, and its run moves it to the next occurrence after the run (`recurring-entries.ts`), so a runner
 * that missed occurrences runs it once, not once per occurrence missed. Kept in the table rather
 * than as EventBridge Scheduler schedules: an entry commits with its record (none without its record,
 * none left by a refused write), 2,000 sign-ins a morning are 2,000 items rather than 2,000 calls against
 * a 50-a-second quota, and tests move the runner's clock.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keyFrom, partitionFrom } from './access-patterns';
import { documents, tableName } from './clients';
import { DUE_SHARDS, dueBound, dueKeys, iso, dueKeyPatterns as keys } from './due-keys';
import type { ItemKey } from './stored-resource';
import type { WriteOp } from './transaction';

export { DUE_SHARDS, dueBound, dueKeys } from './due-keys';

/** A due entry as the runner hands it to its kind. */
export interface DueEntry extends ItemKey {
  kind: string;
  org_id: string;
  /** The record the work is on. */
  id: string;
  /** When it is due, ISO 8601. */
  due: string;
  /** What the kind needs besides the record (which warning this is). */
  data?: Record<string, string | number>;
  /** A recurring entry's rule: `DTSTART;TZID=<IANA zone>:<local time>` and `RRULE:…` (RFC 5545). */
  recurrence?: string;
}

/** An entry item of `kind` for record `id`, due at `at` (epoch ms). */
export const dueEntry = (
  kind: string,
  orgId: string,
  id: string,
  at: number,
  extra: Pick<DueEntry, 'data' | 'recurrence'> = {},
): DueEntry & ReturnType<typeof dueKeys> => {
  const due = iso(at);
  return {
    ...keyFrom(keys.entry, { org_id: orgId, due, kind, id }),
    ...dueKeys(kind, id, at),
    kind,
    org_id: orgId,
    id,
    due,
    ...(extra.data && { data: extra.data }),
    ...(extra.recurrence && { recurrence: extra.recurrence }),
  };
};

/** Writes an entry item (with its record's change). */
export const dueEntryOp = (entry: DueEntry): WriteOp => ({ put: entry });

/** Removes an entry item, if it is still there (with the change that makes it moot). */
export const removeDueEntryOp = ({ pk, sk }: ItemKey): WriteOp => ({ remove: { pk, sk } });

/** What one due item says of itself: its kind and record from the index key, its item key to read it. */
const entryOf = (item: Record<string, unknown>): DueEntry => {
  const indexKey = String(item.gsi1sk);
  const [due = '', kind = '', ...id] = indexKey.split('#');
  return {
    pk: String(item.pk),
    sk: String(item.sk),
    org_id: String(item.org_id),
    kind,
    id: id.join('#'),
    due,
    ...(item.data !== undefined && { data: item.data as DueEntry['data'] }),
    ...(item.recurrence !== undefined && { recurrence: String(item.recurrence) }),
  };
};

/** Which entries a run takes: one organisation's (a test moving the clock for its own records), or all. */
export interface DueFilter {
  orgId?: string;
}

/**
 * Up to `limit` entries due at `now` or before, of every kind, oldest first: one Query per shard (keys
 * and the entry's own few attributes only), merged in due order.
 */
export const dueEntries = async (now: number, limit: number, { orgId }: DueFilter = {}) => {
  const shards = await Promise.all(
    Array.from({ length: DUE_SHARDS }, async (_, shard) => {
      const out = await documents.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :due AND gsi1sk <= :now',
          ExpressionAttributeNames: { '#data': 'data' },
          ExpressionAttributeValues: {
            ':due': partitionFrom(keys.due, { shard: String(shard) }),
            ':now': dueBound(now),
            ...(orgId && { ':org': orgId }),
          },
          ProjectionExpression: 'pk, sk, org_id, gsi1sk, #data, recurrence',
          ...(orgId ? { FilterExpression: 'org_id = :org' } : { Limit: limit }),
        }),
      );
      return (out.Items ?? []).map(entryOf);
    }),
  );
  return shards
    .flat()
    .sort((a, b) => (a.due < b.due ? -1 : a.due > b.due ? 1 : 0))
    .slice(0, limit);
};
