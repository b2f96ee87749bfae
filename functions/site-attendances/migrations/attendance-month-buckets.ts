/**
 * Attendances are bucketed by the month of their ids from `since` (issue 42, item 4), and the attendances
 * before stay in the former partition, read as the oldest bucket. A release deployed after `since` began
 * leaves attendances the code before it wrote in the former partition with ids of a bucketed month: looked
 * for in their month by id (404, and never signed out at closing time) and listed among the oldest. Each
 * moves to its month as it was (its sign-in index, its "on site" entry, its version); the counts count
 * attendances, not places, and stay as they are.
 */
import { moveRecord } from '#shared/data/migrations';
import { misplacedSelection } from '#shared/data/time-buckets';
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { attendanceBuckets, siteAttendances } from '../definitions';

export const attendanceMonthBuckets: MigrationStep = {
  select: misplacedSelection(siteAttendances.type, attendanceBuckets.since),
  migrate: async (items) => {
    // The key its id names decides, as a read by id does: the selection only narrows the Scan.
    const moves = items.flatMap((item) => {
      const to = siteAttendances.keyOf(item.org_id, item.id);
      return to.pk === item.pk ? [] : [moveRecord(item, to)];
    });
    return (await Promise.all(moves)).filter(Boolean).length;
  },
};
