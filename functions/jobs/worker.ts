/**
 * The job worker: takes a job under a lease, runs its kind's chunks from the last checkpoint, and either
 * finishes it (its record's last version, with the result, in the same transaction as the state's) or,
 * once this invocation has used its time, lets it go and invokes itself again. A worker that dies leaves
 * its lease to run out; the due-work runner then starts another, which resumes from the last checkpoint. A job
 * that fails three times at the same point, with no checkpoint between, fails with the last error.
 */
import { randomUUID } from 'node:crypto';
import { currentPrincipal, type Principal } from '#shared/auth/principal';
import { config } from '#shared/config';
import type { DueEntry } from '#shared/data/due-work';
import {
  acquireJob,
  finishJob,
  type JobState,
  LostLease,
  newJobState,
  noteFailure,
  releaseJob,
  saveCheckpoint,
} from '#shared/data/jobs';
import { invokeAsync } from '#shared/data/lambda';
import { getItem } from '#shared/data/repository';
import { countedDay, expiryOf, keptIndexKeys } from '#shared/data/retention';
import { type Actor, type Scope, scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, type WriteOp } from '#shared/data/transaction';
import type { Permission } from '#shared/domain/permissions';
import { type JobError, JobFailed, type JobKind } from '#shared/engine/job-kinds';
import { workerRefusal } from '#shared/engine/lifecycle';
import { byPrincipal, changedRecord, newRecord } from '#shared/engine/record-writes';
import { JOB_RETENTION_DAYS, jobs, keptJobs } from './definitions';

const MAX_ATTEMPTS = 3;

export interface JobRef {
  org_id: string;
  job_id: string;
}

const actorOfJob = (job: StoredResource): Actor =>
  typeof job.rels.created_by_user === 'string'
    ? { kind: 'user', id: job.rels.created_by_user }
    : typeof job.rels.created_by_service_account === 'string'
      ? { kind: 'service-account', id: job.rels.created_by_service_account }
      : { kind: 'system', id: 'jobs' };

/**
 * Why the job may no longer run as its creator, or null. A job runs under its creator's identity with the
 * access its request needed (the permission kept on its record), asked again before every chunk: a grant
 * revoked, a role changed, a user suspended or a service account disabled or deleted stops it at the next
 * chunk, not when it ends. A job made before its record kept the permission needs only a live creator with
 * some grant in the organisation.
 */
const accessLost = async (job: StoredResource): Promise<JobError | null> => {
  const creator = job.rels.created_by_user ?? job.rels.created_by_service_account;
  if (typeof creator !== 'string') return null;
  const principal = await currentPrincipal(creator);
  if (!principal) return { detail: 'The job stopped: its creator is suspended, disabled or deleted.' };
  const held = principal.permissions.get(job.org_id);
  const needed = (job.permission as Permission | undefined) ?? null;
  if (!held || (needed && !held.has(needed)))
    return {
      detail: `The job stopped: its creator no longer holds ${needed ?? 'any grant'} in this organisation.`,
    };
  return null;
};

const finish = async (
  scope: Scope,
  job: StoredResource,
  state: JobState,
  result: { status: 'succeeded' | 'failed'; processed: number; total: number | null; errors: JobError[] },
  rels: Record<string, string> = {},
  ops: readonly WriteOp[] = [],
) => {
  // Through the job's machine: a finished job is never finished again (a bug, not a race: the lease is that).
  const verb = result.status === 'succeeded' ? 'succeed' : 'fail';
  const refused = workerRefusal(jobs.lifecycle, verb, job);
  if (refused.length > 0) throw new Error(`Job ${job.id}: ${refused.join(' ')}`);
  const now = new Date();
  const expiresAt = expiryOf(JOB_RETENTION_DAYS, new Date(String(job.meta.created_at)));
  const record = changedRecord(
    jobs,
    job,
    {
      attributes: {
        status: result.status,
        progress: { processed: result.processed, total: result.total },
        errors: result.errors,
        finished_at: now.toISOString(),
      },
      rels,
    },
    now,
  );
  await finishJob(scope, state, { status: result.status, processed: result.processed, expiresAt }, [
    ...ops,
    {
      replace: { ...record, expires_at: expiresAt },
      was: job,
      as: result.status,
      transition: { verb, from: String(job.attributes.status), to: result.status },
    },
  ]);
};

/** One invocation: 'finished', 'yielded' (invoked again), or 'held' (another worker has it, or it is done). */
export const runJob = async (
  { org_id, job_id }: JobRef,
  kindOf: (name: string) => Promise<JobKind | undefined>,
): Promise<'finished' | 'yielded' | 'held'> => {
  const started = Date.now();
  let state = await acquireJob(job_id, randomUUID(), started);
  if (!state) return 'held';
  const job = await getItem<StoredResource>(jobs.keyOf(org_id, job_id), true);
  if (!job) throw new Error(`Job ${job_id} has state but no record`);
  const scope = scopeOf([org_id], undefined, actorOfJob(job));
  const kind = await kindOf(String(job.attributes.kind));
  try {
    if (state.attempts > MAX_ATTEMPTS || !kind) {
      const errors = [
        {
          detail: kind
            ? `The job failed ${MAX_ATTEMPTS} times at the same point: ${state.last_error ?? 'no reason recorded'}`
            : `No worker knows jobs of kind ${job.attributes.kind}`,
        },
      ];
      const ops = (await kind?.failed?.(scope, job, errors)) ?? [];
      await finish(
        scope,
        job,
        state,
        { status: 'failed', processed: state.processed, total: state.total, errors },
        {},
        ops,
      );
      return 'finished';
    }
    // Before the first chunk and after each checkpoint: the next chunk runs only with the creator's access.
    const stopIfAccessLost = async () => {
      const lost = await accessLost(job);
      if (lost) throw new JobFailed([lost], (await kind.failed?.(scope, job, [lost])) ?? []);
    };
    await stopIfAccessLost();
    const outcome = await kind.run({
      scope,
      job,
      checkpoint: state.checkpoint,
      save: async (next, ops = []) => {
        state = await saveCheckpoint(scope, state as JobState, next, ops);
        await stopIfAccessLost();
      },
      timeUp: () => Date.now() - started > config.JOB_INVOCATION_SECONDS * 1000,
    });
    if (outcome === 'yield') {
      await releaseJob(scope, state);
      await invokeAsync(config.JOB_WORKER_FUNCTION, { org_id, job_id });
      return 'yielded';
    }
    await finish(
      scope,
      job,
      state,
      { status: 'succeeded', processed: outcome.processed, total: outcome.total, errors: [] },
      outcome.rels,
      outcome.ops,
    );
    return 'finished';
  } catch (error) {
    if (error instanceof LostLease) return 'held';
    if (error instanceof JobFailed) {
      await finish(
        scope,
        job,
        state,
        { status: 'failed', processed: state.processed, total: state.total, errors: error.errors },
        {},
        error.ops,
      );
      return 'finished';
    }
    await noteFailure(scope, state, error instanceof Error ? error.message : String(error));
    throw error;
  }
};

/**
 * Creates a job with its working state, and `ops` (the import record it fills), in one transaction; its
 * `job.created` event starts the worker (`consumer.ts`). The record shows `queued` until a worker takes it.
 * `permission` is what the request needed: kept on the record (never served), the worker asks it of the
 * creator again before each chunk. `id` names the job when the ops must name it (an import's `job`).
 */
export const createJob = async (
  scope: Scope,
  orgId: string,
  kind: string,
  principal: Principal,
  {
    permission,
    checkpoint = {},
    rels = {},
    ops = [],
    id,
  }: {
    permission: Permission;
    checkpoint?: Record<string, unknown>;
    rels?: Record<string, string>;
    ops?: readonly WriteOp[];
    id?: string;
  },
): Promise<StoredResource> => {
  const now = new Date();
  const record = newRecord(
    jobs,
    orgId,
    {
      attributes: { kind, status: 'queued', progress: { processed: 0, total: null }, errors: [] },
      rels: { ...byPrincipal('created_by', principal), ...rels },
    },
    now,
    id,
  );
  const kept = keptJobs(orgId, principal.id);
  await commit(scope, [
    ...ops,
    { create: { ...record, ...keptIndexKeys(kept, record.id), permission } },
    countedDay(kept, now),
    { put: newJobState(orgId, record.id, checkpoint, now.getTime()) },
  ]);
  return record;
};

/** Due work (`due-work.ts`): starts a worker for an unfinished job whose lease has run out. */
export const restartJob = async (entry: DueEntry): Promise<void> => {
  await invokeAsync(config.JOB_WORKER_FUNCTION, { org_id: entry.org_id, job_id: entry.id });
};
