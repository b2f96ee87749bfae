/**
 * One-off schedules, kept in the table beside the records they act on: an entry says "at this time, do
 * this kind of work on this record" (sign out an attendance at its site's closing time, warn that an award
 * expires). The record and its schedule commit in the same transaction, so neither exists without the
 * other; the runner (every minute: an EventBridge rule in AWS, a timer in `npm start`) reads what is due
 * and hands each entry to its kind's handler, which removes or moves the entry with the change it makes.
 *
 * Entries live in `SCHEDULE#<shard>` (the id's last hex digit mod 4, to spread a burst of sign-ins),
 * keyed `<due, ISO 8601>#<kind>#<id>`, so the due ones are one key range per shard. Kept in the table
 * rather than as EventBridge Scheduler schedules: they commit with their record (no schedule without its
 * attendance, and none left behind by a refused write), a morning's 2,000 sign-ins are 2,000 items
 * rather than 2,000 CreateSchedule calls against its 50-a-second quota, and tests move the clock.
 */

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, keyFrom, partitionFrom } from './access-patterns';
import { documents, tableName } from './clients';
import type { ItemKey } from './stored-resource';
import type { WriteOp } from './transaction';

export const SCHEDULE_SHARDS = 4;

export interface ScheduleEntry extends ItemKey {
  kind: string;
  org_id: string;
  /** The record the work is on. */
  id: string;
  /** When it is due, ISO 8601. */
  due: string;
  /** What the kind's handler needs besides the record (which warning this is). */
  data?: Record<string, string | number>;
}

const shardOf = (id: string) => Number.parseInt(id.slice(-1), 16) % SCHEDULE_SHARDS;

/** The entry of `kind` for record `id` due at `at` (epoch ms). */
const keys = declareAccessPatterns('data/schedules', {
  entry: {
    index: 'table',
    pk: 'SCHEDULE#{shard}',
    sk: '{due}#{kind}#{id}',
    about:
      "a schedule entry (an attendance's automatic sign-out, an award's next expiry warning): shard the last hex digit of the record's id mod 4, due ISO 8601; `kind`, `org_id`, `id`, `due`, `data`; written and removed in the record's own transactions, which keep its key in `schedule`",
  },
});

export const scheduleEntry = (
  kind: string,
  orgId: string,
  id: string,
  at: number,
  data?: ScheduleEntry['data'],
): ScheduleEntry => {
  const due = new Date(at).toISOString();
  return {
    ...keyFrom(keys.entry, { shard: String(shardOf(id)), due, kind, id }),
    kind,
    org_id: orgId,
    id,
    due,
    ...(data && { data }),
  };
};

/** Writes an entry (with its record's change). */
export const scheduleOp = (entry: ScheduleEntry): WriteOp => ({ put: entry });

/** Removes an entry, if it is still there (with the change that makes it moot). */
export const unscheduleOp = ({ pk, sk }: ItemKey): WriteOp => ({ remove: { pk, sk } });

/**
 * Up to `limit` entries due at `now` or before, oldest first in each shard; only one organisation's, given
 * `orgId` (a test moving the clock for its own records).
 */
export const dueSchedules = async (now: number, limit: number, orgId?: string): Promise<ScheduleEntry[]> => {
  const shards = await Promise.all(
    Array.from({ length: SCHEDULE_SHARDS }, async (_, shard) => {
      const out = await documents.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :shard AND sk <= :now',
          ExpressionAttributeValues: {
            ':shard': partitionFrom(keys.entry, { shard: String(shard) }),
            ':now': `${new Date(now).toISOString()}#~`,
            ...(orgId && { ':org': orgId }),
          },
          ...(orgId ? { FilterExpression: 'org_id = :org' } : { Limit: limit }),
        }),
      );
      return (out.Items ?? []) as ScheduleEntry[];
    }),
  );
  return shards.flat().slice(0, limit);
};
