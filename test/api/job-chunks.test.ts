/**
 * Jobs seen between their chunks (issue 39). Finding 10a: a job runs under its creator's identity, with
 * the access its request needed, and asks for it again before every chunk. A grant revoked while the job
 * runs stops it at its next chunk (failed, saying why, its import or export record too), and nothing more
 * is written; a creator disabled before the job starts stops it before its first chunk. And a large
 * location import names its job from the start and shows the job's progress as it moves.
 *
 * The first invocation of the worker runs in this process, so the test acts between two chunks exactly:
 * right after the checkpoint of the first slice commits. Any invocation it hands the job on to runs as a
 * child process behind the loopback Invoke endpoint, as in `npm start`. No stream runs here: nothing but
 * the test starts a job.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportsDefinition } from '#functions/exports/definitions';
import { jobs } from '#functions/jobs/definitions';
import { config } from '#shared/config';
import { documents, dynamodb, tableName } from '#shared/data/clients';
import { readJobState } from '#shared/data/jobs';
import { getItem } from '#shared/data/repository';
import { HeadObjectCommand, s3 } from '#shared/data/s3';
import { collectionPartition, type StoredResource } from '#shared/data/stored-resource';
import { handler as work } from '../../functions/jobs/work';
import { createServiceAccountClient } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { putContacts } from '../support/customer-contacts';
import { startJobWorkers } from '../support/job-workers';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
let workers: Awaited<ReturnType<typeof startJobWorkers>>;
const log: string[] = [];

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Job Access Org', 0);
  admin = await api.token(tenant.admin);
  workers = await startJobWorkers((line) => log.push(line));
}, 60_000);
afterAll(async () => {
  await workers?.stop();
  await api?.close();
});

const org = () => `/v3/orgs/${tenant.org.id}`;

/** A service account holding `admin` by one grant: its token and that grant's id. */
const importer = async (name: string) => {
  const client = await createServiceAccountClient(name, [{ org_id: tenant.org.id, role: 'admin' }]);
  const grants = await api.get(`${org()}/iam/grants?filter[service_account]=${client.principalId}`, admin);
  expect(grants.body.data).toHaveLength(1);
  return { client, token: await api.token(client), grantId: grants.body.data[0].id as string };
};

const csv = (rows: number, prefix: string) =>
  [
    'reference,name,address',
    ...Array.from({ length: rows }, (_, i) => `${prefix}-${i},Site ${i},${i} Long Lane, Leeds`),
  ].join('\n');

/** A 3,000-row inline import: a job of two slices (2,000 rows, then 1,000). */
const startImport = async (token: string, prefix: string) => {
  const res = await api.request('POST', `${org()}/governance/location-imports`, {
    token,
    body: { data: { type: 'location-imports', attributes: { csv: csv(3000, prefix) } } },
  });
  expect(res.status, res.text).toBe(202);
  return res.body.data.id as string;
};

/** The stored locations whose reference starts with `prefix`. */
const storedReferences = async (prefix: string) => {
  const references: string[] = [];
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
    references.push(...(out.Items ?? []).map((i) => String(i.attributes.reference)));
    start = out.LastEvaluatedKey;
  } while (start);
  return references.filter((r) => r.startsWith(`${prefix}-`));
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The job's record once it has finished (a run handed on to a child process may still be going). */
const finishedJob = async (jobId: string) => {
  for (let i = 0; i < 600; i++) {
    const state = await readJobState(jobId);
    if (state?.status === 'succeeded' || state?.status === 'failed')
      return getItem<StoredResource>(jobs.keyOf(tenant.org.id, jobId), true);
    await pause(100);
  }
  throw new Error(`Job ${jobId} never finished`);
};

const jobErrors = (job: StoredResource | null) => (job?.attributes.errors ?? []) as { detail: string }[];

/** Runs `act` once, right after the job's first checkpoint with rows done has committed (between chunks). */
const afterFirstSlice = (jobId: string, act: () => Promise<void>) => {
  const name = `between-chunks-${jobId}`;
  let done = false;
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      const ours =
        context.commandName === 'TransactWriteItemsCommand' &&
        JSON.stringify((args as { input?: unknown }).input ?? {}).includes(`JOB#${jobId}`);
      if (ours && !done && ((await readJobState(jobId))?.processed ?? 0) > 0) {
        done = true;
        await act();
      }
      return out;
    },
    { step: 'initialize', name },
  );
  return () => dynamodb.middlewareStack.remove(name);
};

describe('a job asks for its creator’s access again before each chunk', () => {
  it('a grant revoked between chunks stops the job at the next one: failed, saying why, and nothing more written', async () => {
    const { token, grantId } = await importer('Revoked importer');
    const jobId = await startImport(token, 'R');
    const stop = afterFirstSlice(jobId, async () => {
      const revoked = await api.request('DELETE', `${org()}/iam/grants/${grantId}`, { token: admin });
      expect(revoked.status, revoked.text).toBe(204);
    });
    try {
      await work({ org_id: tenant.org.id, job_id: jobId });
    } finally {
      stop();
    }
    // The creator holds no grant now, so the job's record is read from the table.
    const job = await finishedJob(jobId);
    expect(job?.attributes).toMatchObject({ status: 'failed', progress: { processed: 2000, total: 3000 } });
    expect(jobErrors(job)[0]?.detail).toMatch(/no longer holds places:manage/);
    const { body: imports } = await api.get(`${org()}/governance/location-imports`, admin);
    const record = imports.data.find(
      (i: { relationships: { job: { data: { id: string } | null } } }) =>
        i.relationships.job.data?.id === jobId,
    );
    expect(record.attributes.status).toBe('failed');
    expect(record.attributes.errors[0].message).toMatch(/no longer holds places:manage/);
    // The first slice was written before the revocation; the second never was.
    expect((await storedReferences('R')).length).toBe(2000);
    expect(log).toEqual([]);
  }, 120_000);

  it('a creator disabled before the job starts: it fails before its first chunk and writes nothing', async () => {
    const { client, token } = await importer('Disabled importer');
    const jobId = await startImport(token, 'D');
    const disabled = await api.request('PATCH', `${org()}/iam/service-accounts/${client.principalId}`, {
      token: admin,
      body: {
        data: { type: 'service-accounts', id: client.principalId, attributes: { enabled: false } },
      },
    });
    expect(disabled.status, disabled.text).toBe(200);
    await work({ org_id: tenant.org.id, job_id: jobId });
    const job = await finishedJob(jobId);
    expect(job?.attributes).toMatchObject({ status: 'failed', progress: { processed: 0 } });
    expect(jobErrors(job)[0]?.detail).toMatch(/suspended, disabled or deleted/);
    expect(await storedReferences('D')).toEqual([]);
  }, 60_000);
});

/** A service account holding `customers:view` and `assets:view` by a grant each: its token and the first grant's id. */
const exporter = async (name: string) => {
  const role = async (roleName: string, permissions: string[]) => {
    const res = await api.request('POST', `${org()}/iam/roles`, {
      token: admin,
      body: { data: { type: 'roles', attributes: { name: roleName, permissions } } },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const contacts = await role(`${name}: contacts`, ['customers:view']);
  const assets = await role(`${name}: assets`, ['assets:view']);
  const client = await createServiceAccountClient(name, [
    { org_id: tenant.org.id, role: contacts },
    { org_id: tenant.org.id, role: assets },
  ]);
  const grants = await api.get(`${org()}/iam/grants?filter[service_account]=${client.principalId}`, admin);
  const grant = grants.body.data.find(
    (g: { relationships: { role: { data: { id: string } } } }) => g.relationships.role.data.id === contacts,
  );
  return { token: await api.token(client), grantId: grant.id as string };
};

describe('an export asks for its creator’s access again before each part of its file', () => {
  it('a grant revoked between parts stops it at the next: job and export failed, saying why; no part written after, no file', async () => {
    const rows = 3_000;
    await putContacts(tenant.org.id, rows);
    const { token, grantId } = await exporter('Revoked exporter');
    const accepted = await api.request('POST', `${org()}/exports`, {
      token,
      body: { data: { type: 'exports', attributes: { subject_type: 'customer-contacts', format: 'csv' } } },
    });
    expect(accepted.status, accepted.text).toBe(202);
    const jobId = accepted.body.data.id as string;
    const exportId = accepted.body.data.relationships.export.data.id as string;
    // What the worker asks of S3 once the grant is gone.
    let revokedAt: number | null = null;
    const afterRevocation: string[] = [];
    const watch = `s3-after-revocation-${jobId}`;
    s3.middlewareStack.add(
      (next, context) => async (args) => {
        if (revokedAt !== null) afterRevocation.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: watch },
    );
    const stop = afterFirstSlice(jobId, async () => {
      const revoked = await api.request('DELETE', `${org()}/iam/grants/${grantId}`, { token: admin });
      expect(revoked.status, revoked.text).toBe(204);
      revokedAt = (await readJobState(jobId))?.processed ?? 0;
    });
    try {
      await work({ org_id: tenant.org.id, job_id: jobId });
    } finally {
      stop();
      s3.middlewareStack.remove(watch);
    }
    // One part (and its checkpoint) was written before the revocation; the job had more to write.
    expect(revokedAt).toBeGreaterThan(0);
    expect(revokedAt).toBeLessThan(rows);
    // The creator still reads its own job and export through its other grant.
    const job = (await api.get(`/v3/jobs/${jobId}`, token)).body.data;
    expect(job.attributes).toMatchObject({ status: 'failed', progress: { processed: revokedAt } });
    expect(job.attributes.errors[0].detail).toMatch(/no longer holds customers:view/);
    const record = await api.get(`/v3/exports/${exportId}`, token);
    expect(record.status, record.text).toBe(200);
    expect(record.body.data.attributes.status).toBe('failed');
    expect(record.body.data.attributes.errors[0]).toMatch(/no longer holds customers:view/);
    expect(record.body.data.meta.download).toBeUndefined();
    // Nothing was written after: no part, no completed file.
    expect(afterRevocation).toEqual([]);
    const stored = await getItem<StoredResource>(exportsDefinition.keyOf(tenant.org.id, exportId), true);
    await expect(
      s3.send(new HeadObjectCommand({ Bucket: config.EXPORTS_BUCKET, Key: String(stored?.object_key) })),
    ).rejects.toMatchObject({ name: 'NotFound' });
    expect(log).toEqual([]);
  }, 120_000);
});

describe('a location import run by a job', () => {
  it('names its job from creation and shows the job’s progress on the import as each chunk lands', async () => {
    const { token } = await importer('Watched importer');
    const jobId = await startImport(token, 'P');
    const { body: list } = await api.get(
      `${org()}/governance/location-imports?filter[status]=processing`,
      token,
    );
    const importId = list.data.find(
      (i: { relationships: { job: { data: { id: string } | null } } }) =>
        i.relationships.job.data?.id === jobId,
    ).id;
    const read = async () =>
      (await api.get(`${org()}/governance/location-imports/${importId}`, token)).body.data;
    const queued = await read();
    expect(queued.relationships.job.data).toEqual({ type: 'jobs', id: jobId });
    expect(queued.attributes).toMatchObject({
      status: 'processing',
      progress: { processed: 0, total: null },
    });
    const job = (await api.get(`/v3/jobs/${jobId}`, token)).body.data;
    expect(job.relationships.location_import.data.id).toBe(importId);
    let between: Record<string, unknown> | undefined;
    const stop = afterFirstSlice(jobId, async () => {
      between = (await read()).attributes;
    });
    try {
      await work({ org_id: tenant.org.id, job_id: jobId });
    } finally {
      stop();
    }
    expect(between).toMatchObject({ status: 'processing', progress: { processed: 2000, total: 3000 } });
    expect((await finishedJob(jobId))?.attributes.status).toBe('succeeded');
    const done = await read();
    expect(done.attributes).toMatchObject({ status: 'completed', counts: { created: 3000 }, progress: null });
    expect(done.relationships.job.data).toEqual({ type: 'jobs', id: jobId });
  }, 120_000);
});
