/**
 * Migration 5: audit entries are bucketed by the month of their ids from `since` (issue 42, item 4), and
 * the entries before stay in the former partition, read as the oldest bucket. A release deployed after
 * `since` began leaves entries the code before it wrote in the former partition with ids of a bucketed
 * month: looked for in their month by id (404) and listed among the oldest. Each moves to its month as it
 * was; the counts (the organisation's and each subject's) count entries, not places, and stay as they are.
 */
import { moveRecord } from '#shared/data/migrations';
import { misplacedSelection } from '#shared/data/time-buckets';
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { auditBuckets, auditEvents } from '../audit-events';

export const auditMonthBuckets: MigrationStep = {
  select: misplacedSelection(auditEvents.type, auditBuckets.since),
  migrate: async (items) => {
    // The key its id names decides, as a read by id does: the selection only narrows the Scan.
    const moves = items.flatMap((item) => {
      const to = auditEvents.keyOf(item.org_id, item.id);
      return to.pk === item.pk ? [] : [moveRecord(item, to)];
    });
    return (await Promise.all(moves)).filter(Boolean).length;
  },
};
