/**
 * The due-work runner (`data/due-work.ts`): every minute, the entries due, of every kind, are handed to
 * their kind's work, each kind with its own few at a time (16 unless it says), so a kind whose work waits
 * on others (a webhook receiver's 10 s) never holds up another's. A kind's work removes or moves its entry
 * in the transaction that does the work (or, for a record that is its own entry, its claim or lease moves
 * it), so an entry is done once; one that fails stays due and is tried again on the next run. Each run
 * first carries over entries still in their shapes before the due index (`data/former-due-entries.ts`).
 */
import { type DueEntry, type DueFilter, dueEntries } from '../data/due-work';
import { switchedOffPairs, switchPairId } from '../data/feature-switches';
import { carryOverFormerDueEntries } from '../data/former-due-entries';
import { log } from '../http/log';
import type { DueWork, DueWorkKind, DueWorkLoader } from './due-work-kind';

/**
 * Entries one run takes on: a site of 2,000 closing at once is signed out in one run (two calls each, 16
 * at a time: seconds, inside the runner's minute); more wait for the next run. Each kind runs its own 16
 * (or its `inFlight`) at once, beside the others.
 */
const RUN_LIMIT = 2_000;
const IN_FLIGHT = 16;

/** What one run did: entries run and failed (logged, and due again next run), in all and by kind. */
export interface DueWorkRun {
  /** Entries found in the shapes before the due index and rewritten onto it (`data/former-due-entries.ts`). */
  carriedOver: number;
  /** Entries left due because their kind's feature is switched off in their organisation (see `switchedOn`). */
  waiting: number;
  ran: number;
  failed: number;
  byKind: Record<string, { ran: number; failed: number }>;
}

/** The entries a run takes: each kind's oldest, up to its `perRun`. */
const taken = (due: DueEntry[], kinds: ReadonlyMap<string, DueWorkKind>) => {
  const counts = new Map<string, number>();
  return due.filter((entry) => {
    const count = (counts.get(entry.kind) ?? 0) + 1;
    counts.set(entry.kind, count);
    return count <= (kinds.get(entry.kind)?.perRun ?? RUN_LIMIT);
  });
};

/**
 * The entries whose kind's feature (`defineArea(…, { feature })`) is on in their organisation, with the
 * switches read in one BatchGetItem (none when no kind due has a feature). The others are left as they
 * are, due: they run at the first run after the feature is switched back on (a sign-out, a warning or a
 * retry late rather than never; each kind's work already finds an entry its record has moved past moot),
 * and are set aside before each kind's share is taken, so they never hold up another organisation's.
 */
const switchedOn = async (due: DueEntry[], kinds: ReadonlyMap<string, DueWorkKind>) => {
  const featureOf = (entry: DueEntry) => kinds.get(entry.kind)?.feature;
  const pairs = new Map<string, { orgId: string; feature: string }>();
  for (const entry of due) {
    const feature = featureOf(entry);
    if (feature) pairs.set(switchPairId(entry.org_id, feature), { orgId: entry.org_id, feature });
  }
  const off = await switchedOffPairs([...pairs.values()]);
  return due.filter((entry) => {
    const feature = featureOf(entry);
    return !feature || !off.has(switchPairId(entry.org_id, feature));
  });
};

/**
 * Entries a deployed table still holds in the shapes before the due index, moved onto it first so those
 * already due run in this run; a failure is logged and never stops the run (they wait for the next).
 */
const carriedOverFormer = async (only: DueFilter) => {
  try {
    const carried = await carryOverFormerDueEntries(only);
    if (carried > 0) log.info('due entries carried over from their former shapes', { carried });
    return carried;
  } catch (error) {
    log.error('carrying over former due entries failed', { error });
    return 0;
  }
};

/**
 * Runs what is due at `now` (epoch ms; tests move it, for their own organisation's entries alone) with the
 * kinds the areas declare, each kind's work loaded once at its first entry; says how many entries ran and
 * how many failed, in all and by kind.
 */
export const runDueWork = async (
  kinds: readonly DueWorkKind[],
  load: DueWorkLoader,
  now = Date.now(),
  only: DueFilter = {},
): Promise<DueWorkRun> => {
  const byName = new Map(kinds.map((kind) => [kind.name, kind]));
  const carriedOver = await carriedOverFormer(only);
  const found = await dueEntries(now, RUN_LIMIT, only);
  const on = await switchedOn(found, byName);
  const due = taken(on, byName);
  const byKind: DueWorkRun['byKind'] = {};
  const loaded = new Map<string, Promise<DueWork>>();
  const workOf = (name: string) => {
    const kind = byName.get(name);
    if (!kind) throw new Error(`no work for due-work kind ${name}`);
    const work = loaded.get(name) ?? load(kind);
    loaded.set(name, work);
    return work;
  };
  const worker = async (queue: DueEntry[]) => {
    for (let entry = queue.shift(); entry; entry = queue.shift()) {
      const tally = byKind[entry.kind] ?? { ran: 0, failed: 0 };
      byKind[entry.kind] = tally;
      try {
        await (await workOf(entry.kind))(entry, now);
        tally.ran += 1;
      } catch (error) {
        tally.failed += 1;
        log.error('due work failed', { kind: entry.kind, id: entry.id, error });
      }
    }
  };
  const queues = new Map<string, DueEntry[]>();
  for (const entry of due) {
    const queue = queues.get(entry.kind) ?? [];
    queue.push(entry);
    queues.set(entry.kind, queue);
  }
  await Promise.all(
    [...queues].flatMap(([name, queue]) =>
      Array.from({ length: Math.min(byName.get(name)?.inFlight ?? IN_FLIGHT, queue.length) }, () =>
        worker(queue),
      ),
    ),
  );
  const tallies = Object.values(byKind);
  return {
    carriedOver,
    waiting: found.length - on.length,
    ran: tallies.reduce((sum, t) => sum + t.ran, 0),
    failed: tallies.reduce((sum, t) => sum + t.failed, 0),
    byKind,
  };
};
