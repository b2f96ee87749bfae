/**
 * A location import too large for its request, as a job: the file (in the exports bucket) is read and
 * mapped at the start of each invocation, then its valid rows go through in slices of 2,000, each
 * slice's look-ups overlapping the previous slice's writes. After each slice a checkpoint saves where
 * the next starts, the counts so far, and the locations it created are counted in the same transaction.
 *
 * Nothing is lost or done twice when a worker dies mid-slice: a new location's id comes from the job and
 * the row's place in the file (`uuidv7Of`), so a slice done again writes the same records, and what it
 * had already written it finds unchanged. Its counts are the ones taken before its first writes, saved
 * with the checkpoint before it (`pending`), not the ones a second look would give.
 *
 * A new row whose reference another writer claimed between the slice's look-up and its write is not
 * written (`writeChanges`): it is rejected, saying so, and the slice's created count drops by it. The
 * checkpoint carries such rows (the first thousand, and their number) to the import's record.
 */

import { config } from '#shared/config';
import { readObjectText } from '#shared/data/files';
import { uuidv7Of } from '#shared/data/ids';
import { getInScope } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import { counterKey, type StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { type JobError, JobFailed, type JobKind } from '#shared/engine/job-kinds';
import { changedRecord } from '#shared/engine/record-writes';
import { ValidationError } from '#shared/jsonapi/errors';
import { locationImports, locations } from './definitions';
import {
  changesFor,
  outcomeOf,
  type RowConflict,
  readRows,
  SLICE_ROWS,
  STORED_ERRORS_MAX,
  writeChanges,
} from './location-imports/writes';
import type { LocationField, LocationRow } from './rules/location-rows';

interface Counts {
  created: number;
  updated: number;
}
interface Checkpoint extends Partial<Counts> {
  /** The first valid row not yet written. */
  next?: number;
  /** BatchWriteItem calls of the slices done, as saved with them (shown on the finished import). */
  calls?: number;
  /** The counts of the slice starting at `at`, taken before its writes. */
  pending?: Counts & { at: number };
  /** Rows of the slices done whose reference another writer took first: their number, the first thousand. */
  conflicted?: number;
  conflicts?: RowConflict[];
}

const importOf = async (scope: Scope, job: StoredResource) => {
  const record = await getInScope(scope, locationImports.keyOf, String(job.rels.location_import));
  if (!record) throw new JobFailed([{ detail: 'The import record is gone.' }]);
  return record;
};

const failedImport = (record: StoredResource, errors: JobError[]): WriteOp[] => [
  {
    replace: changedRecord(locationImports, record, {
      attributes: {
        status: 'failed',
        errors: errors.map((e) => ({ line: e.source?.line ?? null, message: e.detail })),
      },
    }),
    was: record,
    as: 'processed',
  },
];

/** The `location-import` job kind's work (`job-kinds.ts`). */
export const locationImportJob: JobKind = {
  failed: async (scope, job, errors) => failedImport(await importOf(scope, job), errors),
  run: async ({ scope, job, checkpoint, save, timeUp }) => {
    const record = await importOf(scope, job);
    const source = record.attributes.source as { object: string; checksum?: string };
    const file = await readObjectText(config.EXPORTS_BUCKET, source.object);
    if (!file)
      throw new JobFailed(
        [{ detail: 'The file is gone from storage.' }],
        failedImport(record, [{ detail: 'The file is gone from storage.' }]),
      );
    const mapping = record.attributes.mapping as Partial<Record<LocationField, string>> | undefined;
    let rows: ReturnType<typeof readRows>;
    try {
      rows = readRows(file.text, mapping);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const errors = [{ detail: error.detail ?? error.message }];
      throw new JobFailed(errors, failedImport(record, errors));
    }
    const { parsed, valid, rejected } = rows;
    const total = parsed.rows.length;
    const orgId = record.org_id;
    const at = new Date(String(record.meta.created_at));
    const idOf = (row: LocationRow) => uuidv7Of(at.getTime(), row.line, job.id);
    const slice = (from: number) => valid.slice(from, from + SLICE_ROWS);
    const plan = (from: number) => changesFor(orgId, slice(from), at, idOf);

    const state = checkpoint as Checkpoint;
    let next = state.next ?? 0;
    const counts = { created: state.created ?? 0, updated: state.updated ?? 0 };
    let calls = state.calls ?? 0;
    let conflicted = state.conflicted ?? 0;
    const conflicts = state.conflicts ?? [];
    const progress = (done: number, pending?: Checkpoint['pending']) => ({
      checkpoint: { next: done, ...counts, calls, conflicted, conflicts, ...(pending && { pending }) },
      processed: rejected.length + done,
      total,
    });

    let current = next < valid.length ? await plan(next) : null;
    let currentCounts: Counts | null = null;
    if (current) {
      // Counts taken before any write of this slice, or saved before a worker that died wrote some.
      currentCounts =
        state.pending?.at === next ? state.pending : { created: current.created, updated: current.updated };
      if (state.pending?.at !== next) await save(progress(next, { at: next, ...currentCounts }));
    }
    while (current && currentCounts) {
      const following = next + SLICE_ROWS;
      const [written, upcoming] = await Promise.all([
        writeChanges(current),
        following < valid.length ? plan(following) : Promise.resolve(null),
      ]);
      next = Math.min(following, valid.length);
      calls += written.calls;
      const made = currentCounts.created - written.conflicts.length;
      counts.created += made;
      counts.updated += currentCounts.updated;
      conflicted += written.conflicts.length;
      conflicts.push(...written.conflicts.slice(0, STORED_ERRORS_MAX - conflicts.length));
      const upcomingCounts = upcoming && { created: upcoming.created, updated: upcoming.updated };
      await save(progress(next, upcomingCounts ? { at: next, ...upcomingCounts } : undefined), [
        { count: { key: counterKey(orgId, locations.type), by: made } },
      ]);
      if (upcoming && timeUp()) return 'yield';
      current = upcoming;
      currentCounts = upcomingCounts;
    }
    const outcome = outcomeOf(total, { valid: valid.length, ...counts }, rejected, {
      count: conflicted,
      errors: conflicts,
    });
    return {
      processed: total,
      total,
      rels: { location_import: record.id },
      ops: [
        {
          replace: changedRecord(locationImports, record, {
            attributes: { ...outcome, finished_at: new Date().toISOString() },
            meta: { write_calls: calls },
          }),
          was: record,
          as: 'processed',
        },
      ],
    };
  },
};
