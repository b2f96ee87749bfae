/**
 * Issue 18, item 5's goal: a large location import and a large export complete as jobs, at ≥ 0.9× the
 * rows/s of a bare BatchWriteItem (resp. Query) loop in the same run, with no row lost and progress
 * visible while they run (`BENCH_ONLY=jobs`, `BENCH_JOB_ROWS`, default 1,000,000).
 * `BENCH_JOB_HALVES=export` skips the import job: the bare loop writes the locations (about half the
 * time), and the export half runs `BENCH_EXPORT_RUNS` times over them (default 1), to see its spread.
 *
 * The job runs on the local pieces `npm start` runs: the file in s3rver, each worker invocation a child
 * process of the loopback Lambda endpoint, and the due-work runner every 10 s for a worker that dies. Its start is
 * the real one: the import is declared, uploaded through its presigned PUT and processed by the modules
 * the POST handlers call, and its `job.created` event, read from the table, is handed to the stream
 * consumer's own handler (`functions/events/consume.ts`). The stream itself is not polled here: locally
 * that means reading every write's stream record (two million for the baseline, two million for the job)
 * in the bench's own process, CPU the two measured sides would share unevenly; in AWS the mapping filters
 * them out before Lambda. Progress is read every few seconds through what GET /v3/jobs/{id} reads.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { runDue } from '#functions/due-work/run';
import { exportsDefinition } from '#functions/exports/definitions';
import { parseExport } from '#functions/exports/request';
import { requestExport } from '#functions/exports/run';
import { JOB_RESTART, jobs } from '#functions/jobs/definitions';
import { locationImports, locations } from '#functions/places/definitions';
import { processUploadedImport, startImport, UPLOAD_MAX_BYTES } from '#functions/places/import-requests';
import type { Principal } from '#shared/auth/principal';
import { config } from '#shared/config';
import { documents, tableName } from '#shared/data/clients';
import { presignDownload } from '#shared/data/files';
import { uuidv7 } from '#shared/data/ids';
import { getItem } from '#shared/data/repository';
import { type Scope, scopeOf } from '#shared/data/scope';
import { collectionPartition, counterKey, type StoredResource } from '#shared/data/stored-resource';
import { readInScope } from '#shared/engine/single';
import { startLambdaEndpoint } from '../../infra/local/lambda-endpoint';
import { consume, latestEvent, streamRecordOf } from '../support/event-stream';
import { bareBatchWrite, bareQueryLoop, locationItemsOf } from './bare-loops';

/** How often progress is read while a job runs, as a client polling GET /v3/jobs/{id} would. */
const POLL_MS = 3_000;
const SWEEP_MS = 10_000;
/** The host an export's links name (a JSON export's `links.self`; this one is CSV). */
const BASE_URL = 'http://localhost:3000';
/**
 * Items a Query page asks for: about what a default page (1 MB) holds of these locations (2,040), so the
 * calls are those of default pages; but asked for, because DynamoDB Local cuts a page without a `Limit`
 * only after reading the rest of the partition (`bareQueryLoop`), which would take hours at a million.
 */
export const QUERY_PAGE_ITEMS = 2_000;

/** Short rows, so that a million stay inside the upload limit (50 MiB): 46 bytes a row at a million. */
const csvOf = (rows: number) => {
  const lines = ['reference,name,address,latitude,longitude'];
  for (let i = 0; i < rows; i++)
    lines.push(
      `L${i},Site ${i},${i} High St,${(50 + (i % 900) / 100).toFixed(2)},${(-5 + (i % 700) / 100).toFixed(2)}`,
    );
  return lines.join('\n');
};

/** The bare loop over rows `from` to `to`, their items built before the clock starts. */
const bareHalf = async (csv: string, orgId: string, from: number, to: number) => {
  const items = locationItemsOf(csv, orgId, from, to);
  const start = performance.now();
  const calls = await bareBatchWrite(items);
  return { rows: to - from, items: items.length, calls, seconds: (performance.now() - start) / 1000 };
};

interface Sample {
  /** Since the job's event was handed to the consumer. */
  seconds: number;
  status: string;
  processed: number;
  total: number | null;
}

/** The job as GET /v3/jobs/{id} answers it: the record, with status and progress from its state. */
const readJob = async (scope: Scope, jobId: string) => {
  const record = await readInScope(scope, jobs, jobId);
  const [current = record] = (await jobs.derive?.(scope, [record])) ?? [record];
  return current;
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isFinished = (status: unknown) => status === 'succeeded' || status === 'failed';

/**
 * What the export half's job is given: the organisation holding the imported locations, a caller of it,
 * and how a job, once created, is started and followed to its end on the local Lambda endpoint.
 */
export interface JobBench {
  scope: Scope;
  orgId: string;
  principal: Principal;
  rows: number;
  /**
   * Hands the job's `job.created` event (read from the table) to the stream consumer, then reads the job
   * every few seconds until it has finished.
   */
  follow(job: StoredResource): Promise<FollowedJob>;
}

export interface FollowedJob {
  /** The finished job record. */
  job: StoredResource;
  /** From the job's creation to its finish, by its own timestamps. */
  seconds: number;
  invocations: number;
  sweeperStarts: number;
  workerFailures: string[];
  samples: Sample[];
}

const startJobBench = async () => {
  const failures: string[] = [];
  const lambda = await startLambdaEndpoint({
    env: process.env,
    port: Number(new URL(config.LAMBDA_ENDPOINT ?? '').port),
    log: (line) => failures.push(line),
  });
  const follow = async (scope: Scope, job: StoredResource): Promise<FollowedJob> => {
    const invokedBefore = lambda.invocations();
    const failedBefore = failures.length;
    let sweeperStarts = 0;
    let sweeping = false;
    const sweeper = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      runDue()
        .then((run) => {
          sweeperStarts += run.byKind[JOB_RESTART.name]?.ran ?? 0;
        })
        .catch((error: unknown) => failures.push(`sweep: ${String(error)}`))
        .finally(() => {
          sweeping = false;
        });
    }, SWEEP_MS);
    try {
      const created = await latestEvent(job.org_id, 'job.created', job.id);
      const start = performance.now();
      await consume(streamRecordOf(created));
      const samples: Sample[] = [];
      // A job that stops moving for three leases (its worker and the sweeper's both gone) is a failure.
      const stallMs = 3 * config.JOB_LEASE_SECONDS * 1000 + 2 * SWEEP_MS;
      let moved = performance.now();
      for (;;) {
        const current = await readJob(scope, job.id);
        const { status, progress } = current.attributes as {
          status: string;
          progress: { processed: number; total: number | null };
        };
        const seconds = Number(((performance.now() - start) / 1000).toFixed(1));
        const last = samples.at(-1);
        if (!last || last.processed !== progress.processed || last.status !== status)
          moved = performance.now();
        samples.push({ seconds, status, ...progress });
        if (isFinished(status)) {
          const began = Date.parse(String(current.meta.created_at));
          const ended = Date.parse(String(current.attributes.finished_at));
          return {
            job: current,
            seconds: (ended - began) / 1000,
            invocations: lambda.invocations() - invokedBefore,
            sweeperStarts,
            workerFailures: failures.slice(failedBefore),
            samples,
          };
        }
        if (performance.now() - moved > stallMs)
          throw new Error(`Job ${job.id} made no progress for ${stallMs / 1000} s: ${JSON.stringify(last)}`);
        await pause(POLL_MS);
      }
    } finally {
      clearInterval(sweeper);
    }
  };
  return { follow, stop: lambda.stop };
};

/** The progress samples in a report: how many showed the job part-way, and the first and last. */
const progressFigures = (samples: readonly Sample[]) => {
  const show = (s: Sample | undefined) =>
    s
      ? `${s.status} ${s.processed.toLocaleString('en')}/${s.total?.toLocaleString('en') ?? '?'} at ${s.seconds} s`
      : '—';
  // An export's total is known only at its end: part-way is running with some rows and not all.
  const partWay = samples.filter(
    (s) => s.status === 'running' && s.processed > 0 && (s.total === null || s.processed < s.total),
  );
  return {
    progress_samples: samples.length,
    progress_samples_part_way: partWay.length,
    progress_first_sample: show(samples[0]),
    progress_first_part_way: show(partWay[0]),
    progress_last_part_way: show(partWay.at(-1)),
    progress_last_sample: show(samples.at(-1)),
  };
};

/** Every location of the organisation, counted with its reference only: stored, and stored twice. */
const storedRows = async (orgId: string) => {
  const references = new Set<string>();
  let items = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await documents.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': collectionPartition(orgId, locations.type) },
        ProjectionExpression: '#a.#r',
        Limit: QUERY_PAGE_ITEMS,
        ExpressionAttributeNames: { '#a': 'attributes', '#r': 'reference' },
        ExclusiveStartKey,
      }),
    );
    for (const item of out.Items ?? []) {
      items++;
      references.add(String((item.attributes as { reference: string }).reference));
    }
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return { items, distinct: references.size };
};

const ratio = (job: number, bare: number) => Number((job / bare).toFixed(2));
const perSecond = (rows: number, seconds: number) => Math.round(rows / seconds);

/** The bench's caller: a service account of the organisation, as an integration would import. */
const benchPrincipal = (orgId: string): Principal => ({
  id: uuidv7(),
  kind: 'service-account',
  name: 'bench',
  permissions: new Map([[orgId, new Set()]]),
  teams: {},
});

const importHalf = async (
  rows: number,
  follow: (scope: Scope, job: StoredResource) => Promise<FollowedJob>,
) => {
  const csv = csvOf(rows);
  const bytes = Buffer.byteLength(csv);
  if (bytes > UPLOAD_MAX_BYTES)
    throw new Error(`${rows} rows make ${bytes} bytes, over the upload limit (${UPLOAD_MAX_BYTES})`);
  const jobOrg = uuidv7();
  const bareOrg = uuidv7();

  // The baseline writes the same items as the job, half of them before it and half after: a write costs
  // DynamoDB Local a little more as the table grows, and so both sides see the same table on average.
  const half = Math.floor(rows / 2);
  const bareBefore = await bareHalf(csv, bareOrg, 0, half);

  // The job, started as POST …/location-imports (declared upload) and POST …/{id}/process start it.
  const scope = scopeOf([jobOrg]);
  const principal = benchPrincipal(jobOrg);
  const declared = await startImport(
    scope,
    jobOrg,
    {
      data: {
        type: 'location-imports',
        attributes: {
          upload: {
            size: bytes,
            content_type: 'text/csv',
            checksum: createHash('sha256').update(csv).digest('base64'),
          },
          file_name: 'bench.csv',
        },
      },
    },
    principal,
  );
  if (!declared.record) throw new Error('A declared upload answered with a job');
  const upload = declared.record.meta.upload as {
    url: string;
    method: string;
    headers: Record<string, string>;
  };
  const put = await fetch(upload.url, { method: upload.method, headers: upload.headers, body: csv });
  if (!put.ok) throw new Error(`The upload failed: ${put.status} ${await put.text()}`);
  const answer = await processUploadedImport(scope, declared.record, principal);
  if (!answer.job) throw new Error('The import did not become a job');
  const run = await follow(scope, answer.job);
  if (run.job.attributes.status !== 'succeeded')
    throw new Error(
      `The import job ${run.job.attributes.status}: ${JSON.stringify(run.job.attributes.errors)}`,
    );
  const bareAfter = await bareHalf(csv, bareOrg, half, rows);
  const bareSeconds = bareBefore.seconds + bareAfter.seconds;
  const bareCalls = bareBefore.calls + bareAfter.calls;

  const record = await readInScope(scope, locationImports, String(run.job.rels.location_import));
  const counts = record.attributes.counts as { created: number; rejected: number };
  const writeCalls = Number(record.meta.write_calls);
  const [stored, bareStored, counter] = await Promise.all([
    storedRows(jobOrg),
    storedRows(bareOrg),
    getItem<{ count?: number }>(counterKey(jobOrg, locations.type)),
  ]);
  const jobRowsPerSecond = perSecond(rows, run.seconds);
  const bareRowsPerSecond = perSecond(rows, bareSeconds);
  return {
    jobOrg,
    principal,
    figures: {
      rows,
      file_bytes: bytes,
      job_rows_per_second: jobRowsPerSecond,
      bare_batch_write_rows_per_second: bareRowsPerSecond,
      job_to_bare_ratio: ratio(jobRowsPerSecond, bareRowsPerSecond),
      job_seconds_created_to_finished: Number(run.seconds.toFixed(1)),
      bare_seconds: Number(bareSeconds.toFixed(1)),
      bare_rows_per_second_before_and_after_the_job: `${perSecond(bareBefore.rows, bareBefore.seconds)}, ${perSecond(bareAfter.rows, bareAfter.seconds)}`,
      job_write_calls: writeCalls,
      job_items_per_write_call: Number(((counts.created * 2) / writeCalls).toFixed(2)),
      bare_write_calls: bareCalls,
      bare_items_per_write_call: Number(((bareBefore.items + bareAfter.items) / bareCalls).toFixed(2)),
      rows_created: counts.created,
      rows_rejected: counts.rejected,
      rows_stored: stored.distinct,
      rows_lost: rows - stored.distinct,
      rows_stored_twice: stored.items - stored.distinct,
      locations_counter: counter?.count ?? 0,
      bare_rows_stored: bareStored.distinct,
      worker_invocations: run.invocations,
      job_invocation_seconds: config.JOB_INVOCATION_SECONDS,
      workers_started_by_sweeper: run.sweeperStarts,
      worker_failures: run.workerFailures.length === 0 ? 'none' : run.workerFailures.join('; '),
      ...progressFigures(run.samples),
    },
  };
};

/** What the export half's job hands back, beside what following it measured. */
export interface ExportJobRun {
  followed: FollowedJob;
  /** The request's own time: answering 202 with the job. */
  requestSeconds: number;
  /** Data rows in the file the job wrote (downloaded as a client would), the header not counted. */
  rowsExported: number;
  /** Of those, how many distinct ids (a row written twice counts once). */
  distinctRows: number;
  bytes: number;
}

/** The file's data rows as a client downloads it: every line after the header, and its distinct ids. */
const downloadedRows = async (record: StoredResource) => {
  const url = await presignDownload(config.EXPORTS_BUCKET, String(record.object_key), 'bench.csv');
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`The export's download failed: ${res.status}`);
  const ids = new Set<string>();
  let lines = -1; // the header
  let rest = '';
  const decoder = new TextDecoder();
  const take = (line: string) => {
    if (line === '') return;
    lines++;
    if (lines > 0) ids.add(line.slice(0, line.indexOf(',')));
  };
  for await (const chunk of res.body) {
    const text = rest + decoder.decode(chunk, { stream: true });
    const split = text.split('\r\n');
    rest = split.pop() ?? '';
    for (const line of split) take(line);
  }
  take(rest + decoder.decode());
  return { lines, distinct: ids.size };
};

/**
 * The export half's job: the `bench.rows` locations of `bench.orgId`, every attribute, as CSV, requested
 * through the module the export POST handler calls (it reads the first 10,001 rows to find the
 * collection too large for the request, then creates the job), followed with `bench.follow`.
 */
export const exportLocationsAsJob = async (bench: JobBench): Promise<ExportJobRun> => {
  const request = parseExport({
    data: { type: 'exports', attributes: { subject_type: 'locations', format: 'csv' } },
  });
  const asked = performance.now();
  const answer = await requestExport(bench.scope, bench.orgId, request, bench.principal, BASE_URL);
  const requestSeconds = (performance.now() - asked) / 1000;
  if (!('job' in answer)) throw new Error('The export was written within its request, not as a job');
  const followed = await bench.follow(answer.job);
  if (followed.job.attributes.status !== 'succeeded')
    throw new Error(
      `The export job ${followed.job.attributes.status}: ${JSON.stringify(followed.job.attributes.errors)}`,
    );
  const record = await readInScope(bench.scope, exportsDefinition, String(followed.job.rels.export));
  const file = await downloadedRows(record);
  return {
    followed,
    requestSeconds,
    rowsExported: file.lines,
    distinctRows: file.distinct,
    bytes: Number(record.attributes.size),
  };
};

const exportHalf = async (bench: JobBench) => {
  // The baseline: a bare paged Query over the imported locations, whole items, as an export reads them.
  const start = performance.now();
  const bare = await bareQueryLoop(collectionPartition(bench.orgId, locations.type), QUERY_PAGE_ITEMS);
  const bareSeconds = (performance.now() - start) / 1000;
  const bareRowsPerSecond = perSecond(bare.items, bareSeconds);
  const baseline = {
    rows: bench.rows,
    bare_query_rows_per_second: bareRowsPerSecond,
    bare_query_seconds: Number(bareSeconds.toFixed(1)),
    bare_query_calls: bare.calls,
    bare_query_items_per_call: Math.round(bare.items / bare.calls),
    bare_query_page_limit: QUERY_PAGE_ITEMS,
    bare_query_rows_read: bare.items,
  };
  const run = await exportLocationsAsJob(bench);
  const jobRowsPerSecond = perSecond(run.rowsExported, run.followed.seconds);
  return {
    ...baseline,
    job_rows_per_second: jobRowsPerSecond,
    job_to_bare_ratio: ratio(jobRowsPerSecond, bareRowsPerSecond),
    job_seconds_created_to_finished: Number(run.followed.seconds.toFixed(1)),
    request_seconds_to_202: Number(run.requestSeconds.toFixed(1)),
    file_bytes: run.bytes,
    rows_exported: run.rowsExported,
    rows_lost: bench.rows - run.distinctRows,
    rows_exported_twice: run.rowsExported - run.distinctRows,
    worker_invocations: run.followed.invocations,
    job_invocation_seconds: config.JOB_INVOCATION_SECONDS,
    workers_started_by_sweeper: run.followed.sweeperStarts,
    worker_failures:
      run.followed.workerFailures.length === 0 ? 'none' : run.followed.workerFailures.join('; '),
    ...progressFigures(run.followed.samples),
  };
};

/** Locations for the export half alone: written by the bare loop, 100,000 rows' items at a time. */
const seededOrg = async (rows: number) => {
  const orgId = uuidv7();
  const csv = csvOf(rows);
  for (let from = 0; from < rows; from += 100_000)
    await bareBatchWrite(locationItemsOf(csv, orgId, from, Math.min(rows, from + 100_000)));
  return { jobOrg: orgId, principal: benchPrincipal(orgId), figures: 'not run' as const };
};

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export const benchJobs = async (
  rows: number,
  { halves = ['import', 'export'], exportRuns = 1 }: { halves?: readonly string[]; exportRuns?: number } = {},
) => {
  const local = await startJobBench();
  try {
    const imported = halves.includes('import') ? await importHalf(rows, local.follow) : await seededOrg(rows);
    if (!halves.includes('export')) return { import: imported.figures, export: 'not run' as const };
    const scope = scopeOf([imported.jobOrg]);
    const bench: JobBench = {
      scope,
      orgId: imported.jobOrg,
      principal: imported.principal,
      rows,
      follow: (job) => local.follow(scope, job),
    };
    const runs = [];
    for (let i = 0; i < exportRuns; i++) runs.push(await exportHalf(bench));
    // One run's figures, the one with the median ratio; and every run's ratio beside them.
    const ratios = runs.map((r) => r.job_to_bare_ratio);
    const typical = runs.find((r) => r.job_to_bare_ratio === median(ratios));
    if (!typical) throw new Error(`BENCH_EXPORT_RUNS must be at least 1, not ${exportRuns}`);
    return {
      import: imported.figures,
      export:
        exportRuns > 1
          ? { export_runs: exportRuns, job_to_bare_ratio_each_run: ratios.join(', '), ...typical }
          : typical,
    };
  } finally {
    await local.stop();
  }
};
