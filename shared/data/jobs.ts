/**
 * A job's working state, beside its record: one item, `JOB#<job id>` / `STATE`, holding its status, its
 * progress, the checkpoint its next chunk starts from, and the lease of the worker running it. It is not
 * a record (its many updates are not events; the job record's few changes are), and it is written only
 * here, each write conditional on the lease, so a worker that lost its job can never move it on.
 *
 * While a job is unfinished its state is its own entry on the due index (`due-work.ts`), due when its
 * lease expires: the due-work runner reads what has expired (a worker that died, or a job whose start was
 * lost) and starts a worker for it (`JOB_RESTART`, `functions/jobs/definitions.ts`). A finished job's
 * state leaves the index.
 */
import { GetCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { documents, tableName } from './clients';
import { dueKeys } from './due-keys';
import { JOB_DUE_KIND, jobStateKey } from './job-keys';
import type { Scope } from './scope';
import { commit, type WriteOp, WriteRefused } from './transaction';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface JobState {
  pk: string;
  sk: string;
  org_id: string;
  job_id: string;
  status: JobStatus;
  processed: number;
  total: number | null;
  /** Where the next chunk starts, in the job kind's own terms (JSON). */
  checkpoint: Record<string, unknown>;
  /** Checkpoints saved so far: each save names the one it follows. */
  seq: number;
  /** Invocations that took the job since its last checkpoint: a job that keeps failing at one point stops. */
  attempts: number;
  lease_id?: string;
  /** Epoch ms; 0 when released. */
  lease_until: number;
  last_error?: string;
  gsi1pk?: string;
  gsi1sk?: string;
  expires_at?: number;
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const due = (jobId: string, leaseUntil: number) => dueKeys(JOB_DUE_KIND, jobId, leaseUntil);

/** The state of a job just created: queued, free to take, and due for a restart a lease later. */
export const newJobState = (
  orgId: string,
  jobId: string,
  checkpoint: Record<string, unknown>,
  now: number,
): JobState => {
  return {
    ...jobStateKey(jobId),
    org_id: orgId,
    job_id: jobId,
    status: 'queued',
    processed: 0,
    total: null,
    checkpoint,
    seq: 0,
    attempts: 0,
    // Free for the worker its event starts; due for a restart only if none has taken it a lease later.
    lease_until: 0,
    ...due(jobId, now + config.JOB_LEASE_SECONDS * 1000),
  };
};

export const readJobState = async (jobId: string): Promise<JobState | null> => {
  const out = await documents.send(
    new GetCommand({ TableName: tableName, Key: jobStateKey(jobId), ConsistentRead: true }),
  );
  return (out.Item as JobState | undefined) ?? null;
};

/** A worker's hold on a job was taken by another (or the job finished): it must stop at once. */
export class LostLease extends Error {}

const isConditionFailure = (error: unknown) =>
  error instanceof Error &&
  (error.name === 'ConditionalCheckFailedException' ||
    (error.name === 'TransactionCanceledException' && error.message.includes('ConditionalCheckFailed')));

/**
 * Takes an unfinished job whose lease has run out (or was released), for `leaseId`: null when another
 * worker holds it or it has finished. Counts the attempt.
 */
export const acquireJob = async (jobId: string, leaseId: string, now: number): Promise<JobState | null> => {
  const leaseUntil = now + config.JOB_LEASE_SECONDS * 1000;
  try {
    const out = await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: jobStateKey(jobId),
        UpdateExpression:
          'SET #status = :running, lease_id = :lease, lease_until = :until, gsi1sk = :sk ADD attempts :one',
        ConditionExpression: '#status IN (:queued, :running) AND lease_until < :now',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':running': 'running',
          ':queued': 'queued',
          ':lease': leaseId,
          ':until': leaseUntil,
          ':sk': due(jobId, leaseUntil).gsi1sk,
          ':one': 1,
          ':now': now,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes as JobState;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
};

/** The state update that moves a job on under its lease (and renews it), as a transaction item. */
const moveOn = (state: JobState, set: Record<string, unknown>, remove: string[] = []): TransactItem => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':lease': state.lease_id, ':seq': state.seq };
  const sets = Object.entries(set).map(([name, value], i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  return {
    Update: {
      TableName: tableName,
      Key: jobStateKey(state.job_id),
      UpdateExpression: `SET ${sets.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
      ConditionExpression: 'lease_id = :lease AND seq = :seq',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
};

/** Commits the state's move with `ops`, both or neither; a move the lease no longer allows is `LostLease`. */
const moveWith = async (scope: Scope, move: TransactItem, ops: readonly WriteOp[] = []) => {
  try {
    await commit(scope, [{ item: move }, ...ops]);
  } catch (error) {
    if (error instanceof WriteRefused && error.op === 0) throw new LostLease('Another worker holds the job');
    throw error;
  }
};

/**
 * Saves a checkpoint under the worker's lease, with the writes that must happen exactly once with it (the
 * count of the records the chunk created): both or neither. Renews the lease.
 */
export const saveCheckpoint = async (
  scope: Scope,
  state: JobState,
  next: { checkpoint: Record<string, unknown>; processed: number; total: number | null },
  ops: readonly WriteOp[] = [],
  now = Date.now(),
): Promise<JobState> => {
  const leaseUntil = now + config.JOB_LEASE_SECONDS * 1000;
  const set = {
    ...next,
    seq: state.seq + 1,
    attempts: 0,
    lease_until: leaseUntil,
    gsi1sk: due(state.job_id, leaseUntil).gsi1sk,
  };
  await moveWith(scope, moveOn(state, set), ops);
  return { ...state, ...set };
};

/** Lets the job go to the next invocation, which need not wait for the lease to run out. */
export const releaseJob = async (scope: Scope, state: JobState): Promise<void> => {
  await moveWith(
    scope,
    moveOn(state, { lease_until: 0, seq: state.seq + 1, gsi1sk: due(state.job_id, 0).gsi1sk }),
  );
};

/** Records why an attempt failed, if the worker still holds the job (best effort: the lease may be gone). */
export const noteFailure = async (scope: Scope, state: JobState, message: string): Promise<void> => {
  await moveWith(scope, moveOn(state, { last_error: message.slice(0, 1000), seq: state.seq + 1 })).catch(
    () => {},
  );
};

/**
 * Finishes the job under the worker's lease with `ops` (its record's last version, its result): the state
 * leaves the due index and is kept as long as the record.
 */
export const finishJob = async (
  scope: Scope,
  state: JobState,
  outcome: { status: 'succeeded' | 'failed'; processed: number; expiresAt: number },
  ops: readonly WriteOp[],
): Promise<void> => {
  const set = {
    status: outcome.status,
    processed: outcome.processed,
    lease_until: 0,
    expires_at: outcome.expiresAt,
    seq: state.seq + 1,
  };
  await moveWith(scope, moveOn(state, set, ['gsi1pk', 'gsi1sk', 'lease_id']), ops);
};
