/**
 * The schedule runner (data/schedules.ts): every minute, the entries due are handed to their kind's work,
 * 16 at a time. Each kind's work removes or moves its entry in the transaction that does the work, so an
 * entry is done once; one that fails stays due and is tried again on the next run.
 */

import { scheduledAwardWork } from '#functions/qualifications/awards';
import { scheduledAttendanceWork } from '#functions/site-attendances/sign-out-writes';
import { dueSchedules, type ScheduleEntry } from '#shared/data/schedules';
import { log } from '#shared/http/log';

const work: Readonly<Record<string, (entry: ScheduleEntry, now: number) => Promise<void>>> = {
  ...scheduledAwardWork,
  ...scheduledAttendanceWork,
};

/**
 * Entries one run takes on: a site of 2,000 closing at once is signed out in one run (two calls each, 16
 * at a time: seconds, inside the runner's minute); more wait for the next run.
 */
const RUN_LIMIT = 2_000;
const IN_FLIGHT = 16;

/**
 * Runs what is due at `now` (epoch ms; tests move it, for their own organisation's entries alone); says how
 * many entries ran and how many failed.
 */
export const runDueSchedules = async (now = Date.now(), orgId?: string) => {
  const due = await dueSchedules(now, RUN_LIMIT, orgId);
  let failed = 0;
  const queue = [...due];
  const worker = async () => {
    for (let entry = queue.shift(); entry; entry = queue.shift()) {
      const run = work[entry.kind];
      try {
        if (!run) throw new Error(`no work for schedule kind ${entry.kind}`);
        await run(entry, now);
      } catch (error) {
        failed += 1;
        log.error('scheduled work failed', { kind: entry.kind, id: entry.id, error });
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { ran: due.length - failed, failed };
};
