/**
 * Jobs, run as the stack runs them, for a test file: the worker functions behind the loopback Invoke
 * endpoint on the port the file's environment reserved (`LAMBDA_ENDPOINT`, see local-env.ts), each
 * invocation a child process; and, when asked, the table's stream polled as `npm start` polls it, so a
 * job's `job.created` event starts its worker. A file that hands such an event to the consumers itself
 * (the route walk's large import) needs the workers, as the stack needs them: the consumer's invocation
 * would otherwise be refused and the event handed back.
 */
import type { ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import { runDue } from '#functions/due-work/run';
import { JOB_RESTART } from '#functions/jobs/definitions';
import { tableName } from '#shared/data/clients';
import { handler as consume } from '../../functions/events/consume';
import { startEventStream } from '../../infra/local/event-stream';
import { startLambdaEndpoint } from '../../infra/local/lambda-endpoint';
import type { ApiResponse, TestApi } from './api';

export const startJobWorkers = (log: (line: string) => void = () => {}) =>
  startLambdaEndpoint({
    // Read at each invocation: a test may change a worker's setting (EXPORT_PART_KIB) for its own jobs.
    env: process.env,
    port: Number(new URL(process.env.LAMBDA_ENDPOINT ?? '').port),
    log,
  });

/** The workers and the stream: a job requested through the API runs to its end. */
export const startJobs = async (log: (line: string) => void = () => {}) => {
  const workers = await startJobWorkers(log);
  const stream = await startEventStream({
    endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName,
    handler: consume,
    intervalMs: 100,
    log,
  });
  return {
    running: workers.running,
    stop: async () => {
      await stream.stop();
      await workers.stop();
    },
  };
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads the job until `done` says so (or a minute passes); every answer it saw, in order. */
export const watchJob = async (
  api: TestApi,
  token: string,
  jobId: string,
  done: (res: ApiResponse) => boolean,
) => {
  const seen: ApiResponse[] = [];
  for (let i = 0; i < 600; i++) {
    const res = await api.get(`/v3/jobs/${jobId}`, token);
    seen.push(res);
    if (done(res)) return seen;
    await pause(100);
  }
  throw new Error(`Job ${jobId} never got there: ${seen.at(-1)?.text}`);
};

export const finished = (res: ApiResponse) =>
  ['succeeded', 'failed'].includes(res.body?.data?.attributes?.status);

interface Workers {
  running: () => ChildProcess[];
}

/**
 * Kills the workers mid-job, and for a second more any that start: one handing the job on may have
 * asked for its successor just before it died, and the successor must not carry the job on either.
 */
const killWorkers = async (workers: Workers) => {
  const killed = new Set<ChildProcess>();
  for (let round = 0; round < 5; round++) {
    for (const child of workers.running()) {
      child.kill('SIGKILL');
      killed.add(child);
    }
    await pause(200);
  }
  return killed.size;
};

/**
 * Kills the job's workers once it is part-way, checks that it stalls (running, short of `rows`) and that
 * only the due-work runner, once the dead worker's lease has run out, moves it on; every answer seen after.
 */
export const killMidJob = async (
  api: TestApi,
  token: string,
  jobId: string,
  workers: Workers,
  rows: number,
) => {
  await watchJob(api, token, jobId, (res) => res.body.data.attributes.progress.processed > 0);
  expect(await killWorkers(workers)).toBeGreaterThan(0);
  const stalled = (await api.get(`/v3/jobs/${jobId}`, token)).body.data.attributes;
  expect(stalled.status).toBe('running');
  expect(stalled.progress.processed).toBeLessThan(rows);
  const { seen, swept } = await sweepUntilFinished(api, token, jobId, workers);
  expect(swept).toBeGreaterThan(0);
  return seen;
};

/**
 * Reads the job until it ends, running the due-work runner (as its rule would) whenever no worker is
 * alive; every answer seen, and how many workers it started for the job.
 */
const sweepUntilFinished = async (api: TestApi, token: string, jobId: string, workers: Workers) => {
  let swept = 0;
  const seen = await watchJob(api, token, jobId, (res) => {
    if (finished(res)) return true;
    if (workers.running().length === 0)
      void runDue().then((run) => (swept += run.byKind[JOB_RESTART.name]?.ran ?? 0));
    return false;
  });
  return { seen, swept };
};
