/**
 * The migration runner: every migration the areas declare above the table's schema version, in order
 * (`migration-declarations.ts` says what one is), each a walk of the table saved after every page.
 */
import {
  type MigrationProgress,
  readProgress,
  readSchemaVersion,
  recordSchemaVersion,
  saveProgress,
  scanPage,
} from '../data/migrations';
import { type DeclaredMigration, type MigrationLoader, migrationsInOrder } from './migration-declarations';

export interface MigrationRun {
  /** The schema version before and after this run. */
  from: number;
  to: number;
  /** What each migration this run worked on read and changed in this run. */
  ran: { version: number; name: string; read: number; changed: number; finished: boolean }[];
  /** False when time ran out first: run again, and it resumes. */
  finished: boolean;
}

export interface RunOptions {
  now?: () => Date;
  /** True once this run has had its time: it stops after the page it is on, progress saved. */
  timeUp?: () => boolean;
  /** Items a page reads (DynamoDB stops sooner at 1 MB). */
  pageSize?: number;
}

const PAGE_SIZE = 500;

/** Runs every migration above the table's schema version, in order, until done or out of time. */
export const runMigrations = async (
  declared: readonly DeclaredMigration[],
  load: MigrationLoader,
  { now = () => new Date(), timeUp = () => false, pageSize = PAGE_SIZE }: RunOptions = {},
): Promise<MigrationRun> => {
  const from = await readSchemaVersion();
  const run: MigrationRun = { from, to: from, ran: [], finished: false };
  for (const declaration of migrationsInOrder(declared).filter((m) => m.version > from)) {
    const step = await load(declaration);
    let progress: MigrationProgress = (await readProgress(declaration.version)) ?? {
      version: declaration.version,
      name: declaration.name,
      read: 0,
      changed: 0,
      seq: 0,
    };
    const done = {
      version: declaration.version,
      name: declaration.name,
      read: 0,
      changed: 0,
      finished: false,
    };
    run.ran.push(done);
    while (!progress.finished_at) {
      if (timeUp()) return run;
      const page = await scanPage(step.select, progress.checkpoint, pageSize);
      const changed = await step.migrate(page.items, now());
      done.read += page.read;
      done.changed += changed;
      const { checkpoint: _, ...rest } = progress;
      progress = {
        ...rest,
        ...(page.next && { checkpoint: page.next }),
        read: progress.read + page.read,
        changed: progress.changed + changed,
        seq: progress.seq + 1,
        ...(!page.next && { finished_at: now().toISOString() }),
      };
      await saveProgress(progress);
    }
    done.finished = true;
    await recordSchemaVersion(declaration.version, now());
    run.to = declaration.version;
  }
  run.finished = true;
  return run;
};
