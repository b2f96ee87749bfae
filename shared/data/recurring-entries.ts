/**
 * Recurring entry items (`due-work.ts`) and retiring an entry item's run: the entry goes, and a recurring
 * one comes back at its next occurrence. Apart from `due-work.ts` so that only the modules making or running
 * recurring entries bundle the rule expansion (`recurrence.ts`, rrule-temporal and its Temporal polyfill).
 */
import { tableName } from './clients';
import { type DueEntry, dueEntry, dueEntryOp } from './due-work';
import { checkRecurrence, nextOccurrence } from './recurrence';
import type { WriteOp } from './transaction';

/**
 * A recurring entry item of `kind` for record `id`, due at its rule's first occurrence at or after `now`;
 * null when the rule has none left. Refuses a rule without an IANA time zone.
 */
export const recurringEntry = async (
  kind: string,
  orgId: string,
  id: string,
  recurrence: string,
  now: number,
) => {
  checkRecurrence(recurrence);
  const at = nextOccurrence(recurrence, now, true);
  return at === null ? null : dueEntry(kind, orgId, id, at, { recurrence });
};

/**
 * The ops that retire an entry item's run at `now`, for its kind to commit with the work it does: the entry
 * goes, refused if another run took it first (so the work is done once), and a recurring entry comes back
 * at its next occurrence after `now` (occurrences missed while no runner ran are not run one by one).
 */
export const retireOps = async (entry: DueEntry, now: number): Promise<WriteOp[]> => {
  const taken: WriteOp = {
    item: {
      Delete: {
        TableName: tableName,
        Key: { pk: entry.pk, sk: entry.sk },
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
  };
  if (!entry.recurrence) return [taken];
  const at = nextOccurrence(entry.recurrence, now);
  if (at === null) return [taken];
  const next = dueEntry(entry.kind, entry.org_id, entry.id, at, {
    recurrence: entry.recurrence,
    ...(entry.data && { data: entry.data }),
  });
  return [taken, dueEntryOp(next)];
};
