/**
 * Issue 18, item 5: jobs. A location import too large for its request answers 202 with the job doing it
 * (`Content-Location` its URL); the job's `job.created` event reaches the stream's consumer, which starts
 * the worker through the Lambda Invoke API (locally: a child process per invocation). The worker goes
 * through the rows in bounded slices, saving a checkpoint after each, hands the job to a fresh invocation
 * of itself when its time is up, and finishes it with the import record's counts. A worker killed
 * mid-job loses nothing: the due-work runner starts another once its lease runs out, and it resumes from the
 * last checkpoint with no row lost or written twice.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '#functions/jobs/definitions';
import { documents, tableName } from '#shared/data/clients';
import { getItem } from '#shared/data/repository';
import { collectionPartition } from '#shared/data/stored-resource';
import { type ApiResponse, startTestApi, type TestApi } from '../support/api';
import { finished, killMidJob, startJobs, watchJob } from '../support/job-workers';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
let viewerToken: string;
let lambda: Awaited<ReturnType<typeof startJobs>>;
const log: string[] = [];

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Jobs Org', 0);
  [token, viewerToken] = await Promise.all([api.token(tenant.admin), api.token(tenant.viewer)]);
  lambda = await startJobs((line) => log.push(line));
}, 60_000);
afterAll(async () => {
  await lambda?.stop();
  await api?.close();
});

const csv = (rows: number, prefix: string, extra = '') =>
  [
    'reference,name,address',
    ...Array.from({ length: rows }, (_, i) => `${prefix}-${i},Site ${i}${extra},${i} Long Lane, Leeds`),
  ].join('\n');

const importInline = (text: string) =>
  api.request('POST', `/v3/orgs/${tenant.org.id}/governance/location-imports`, {
    token,
    body: { data: { type: 'location-imports', attributes: { csv: text } } },
  });

const watch = (jobId: string, done: (res: ApiResponse) => boolean) => watchJob(api, token, jobId, done);

/** Every stored location of the organisation, by reference. */
const storedLocations = async () => {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documents.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': collectionPartition(tenant.org.id, 'locations') },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items.map((item) => (item.attributes as { reference: string }).reference);
};

describe('a location import too large for its request is a job', () => {
  let jobId: string;
  let accepted: ApiResponse;

  it('answers 202 with the job, queued, and its URL in Content-Location', async () => {
    accepted = await importInline(csv(3000, 'A'));
    expect(accepted.status, accepted.text).toBe(202);
    expect(accepted.body.data).toMatchObject({
      type: 'jobs',
      attributes: { kind: 'location-import', status: 'queued', progress: { processed: 0, total: null } },
    });
    jobId = accepted.body.data.id;
    expect(accepted.headers.get('content-location')).toBe(accepted.body.data.links.self);
  });

  it('runs through the stream and the worker, showing its progress, to succeeded with the import’s result', async () => {
    const seen = await watch(jobId, finished);
    const last = seen.at(-1)?.body.data;
    expect(last.attributes).toMatchObject({
      status: 'succeeded',
      progress: { processed: 3000, total: 3000 },
      errors: [],
    });
    // Only its worker moves a job: a client is offered no move (its declared machine).
    expect(last.meta.allowed_transitions).toEqual([]);
    // Progress was visible while it ran: some answer showed it running part-way.
    expect(
      seen.some((r) => {
        const { status, progress } = r.body.data.attributes;
        return status === 'running' && progress.processed > 0 && progress.processed < 3000;
      }),
    ).toBe(true);
    const importId = last.relationships.location_import.data.id;
    const record = await api.get(`/v3/orgs/${tenant.org.id}/governance/location-imports/${importId}`, token);
    expect(record.body.data.attributes).toMatchObject({
      status: 'completed',
      counts: { rows: 3000, created: 3000, updated: 0, unchanged: 0, rejected: 0 },
    });
    const listed = await api.get(`/v3/orgs/${tenant.org.id}/governance/locations?page[limit]=1`, token);
    expect(listed.body.meta.pagination.counts.resources).toBe(3000);
    expect(log).toEqual([]);
  }, 120_000);

  it('never shows as finished without its result: a record read before the finishing write shows running', async () => {
    // The state and the record's last version are one transaction, but a read takes the record, then
    // the state: put the record back as a read from before that transaction saw it.
    const key = jobs.keyOf(tenant.org.id, jobId);
    const setStatus = (status: string) =>
      documents.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key,
          UpdateExpression: 'SET attributes.#status = :status',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': status },
        }),
      );
    await setStatus('queued');
    try {
      const read = (await api.get(`/v3/jobs/${jobId}`, token)).body.data;
      expect(read.attributes).toMatchObject({ status: 'running', progress: { processed: 3000 } });
    } finally {
      await setStatus('succeeded');
    }
    expect((await api.get(`/v3/jobs/${jobId}`, token)).body.data.attributes.status).toBe('succeeded');
  });

  it('is its creator’s: another principal of the organisation gets 404', async () => {
    const res = await api.get(`/v3/jobs/${jobId}`, viewerToken);
    expect(res.status).toBe(404);
    const list = await api.get(`/v3/orgs/${tenant.org.id}/jobs`, viewerToken);
    expect(list.body.data.map((j: { id: string }) => j.id)).not.toContain(jobId);
    const own = await api.get(`/v3/orgs/${tenant.org.id}/jobs`, token);
    expect(own.body.data.map((j: { id: string }) => j.id)).toContain(jobId);
    // Each list is its creator's own index of jobs, counted by day: nothing of the other's is read or counted.
    expect(list.body.meta.pagination.counts.resources).toBe(0);
    expect(own.body.meta.pagination.counts.resources).toBe(own.body.data.length);
  });

  it('is kept 30 whole days from the day it was requested: its TTL is the end of that day + 30 (UTC)', async () => {
    const stored = await getItem<{ expires_at: number; meta: { created_at: string } }>(
      jobs.keyOf(tenant.org.id, jobId),
    );
    const day = 86_400_000;
    const made = Math.floor(Date.parse(stored?.meta.created_at ?? '') / day) * day;
    expect(stored?.expires_at).toBe((made + 31 * day) / 1000);
  });

  it('an import of a file with no reference column fails as a job, with the reason, and writes nothing', async () => {
    const res = await importInline(csv(3000, 'B').replace('reference,', 'ref,'));
    expect(res.status, res.text).toBe(202);
    const last = (await watch(res.body.data.id, finished)).at(-1)?.body.data;
    expect(last.attributes.status).toBe('failed');
    expect(last.attributes.errors[0].detail).toMatch(/no reference column/);
    expect((await storedLocations()).filter((r) => r.startsWith('B-'))).toEqual([]);
  }, 120_000);
});

describe('a worker killed mid-job', () => {
  it('is replaced once its lease runs out, and the job finishes with no row lost or written twice', async () => {
    const rows = 5_000;
    const res = await importInline(csv(rows, 'K'));
    expect(res.status, res.text).toBe(202);
    const jobId = res.body.data.id;
    // Kill the worker while it is part-way: after its first checkpoint, during a later slice's writes.
    const seen = await killMidJob(api, token, jobId, lambda, rows);
    expect(seen.at(-1)?.body.data.attributes).toMatchObject({
      status: 'succeeded',
      progress: { processed: rows, total: rows },
    });
    const references = (await storedLocations()).filter((r) => r.startsWith('K-'));
    expect(references.length).toBe(rows);
    expect(new Set(references).size).toBe(rows);
    const importId = seen.at(-1)?.body.data.relationships.location_import.data.id;
    const record = await api.get(`/v3/orgs/${tenant.org.id}/governance/location-imports/${importId}`, token);
    expect(record.body.data.attributes.counts).toMatchObject({ created: rows, unchanged: 0 });
    const listed = await api.get(`/v3/orgs/${tenant.org.id}/governance/locations?page[limit]=1`, token);
    expect(listed.body.meta.pagination.counts.resources).toBe(3000 + rows);
  }, 180_000);
});
