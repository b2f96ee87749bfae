/**
 * Site attendances are bucketed by the month of their ids from `since`, and each is filed under its site
 * on `lsi2` (issue 42, items 1 and 4). Attendances written before lack the site's entry: `filter[scheme]`
 * and `filter[location]` would miss them; and a release deployed after `since` began leaves those the code
 * before it wrote in the former partition with ids of a bucketed month: looked for in their month by id
 * (404, and never signed out at closing time) and listed among the oldest. Each is stored as today's code
 * writes it (`indexed`), moved to its month where it is not there; the counts count attendances, not
 * places, and stay as they are.
 */
import { moveRecord } from '#shared/data/migrations';
import { misplacedSelection } from '#shared/data/time-buckets';
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { reindexStep } from '#shared/engine/reindex-step';
import { indexed } from '#shared/engine/stored';
import { attendanceBuckets, siteAttendances } from '../definitions';

const misplaced = misplacedSelection(siteAttendances.type, attendanceBuckets.since);
// Misplaced (`misplacedSelection`: the former partition, an id of a bucketed month) or without the site's entry.
const select = {
  ...misplaced,
  expression:
    '#type = :type AND sk = #id AND begins_with(pk, :tenant) AND (attribute_not_exists(lsi2) OR (NOT contains(pk, :bucket) AND #id >= :since))',
};
const reindex = reindexStep(siteAttendances, select);

export const attendanceBucketsAndSites: MigrationStep = {
  select,
  migrate: async (items, now) => {
    // The key its id names decides, as a read by id does: the selection only narrows the Scan.
    const away = (item: (typeof items)[number]) => siteAttendances.keyOf(item.org_id, item.id).pk !== item.pk;
    const moves = items
      .filter(away)
      .map((item) => moveRecord(indexed(siteAttendances, item), siteAttendances.keyOf(item.org_id, item.id)));
    const [moved, reindexed] = await Promise.all([
      Promise.all(moves),
      reindex.migrate(
        items.filter((item) => !away(item)),
        now,
      ),
    ]);
    return moved.filter(Boolean).length + reindexed;
  },
};
