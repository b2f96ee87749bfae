/**
 * Migrations of the records kept by creator (issue 42, item 3): exports and jobs stored before they were
 * filed on their creator's index (cccf9be, d15605a) read back through their creator's lists as records
 * made today, once `migrate` (the runner `npm run migrate` runs) has run. A file of its own so its table
 * holds only these records: the runner walks the whole table once per migration.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportsDefinition, RETENTION_DAYS } from '#functions/exports/definitions';
import { jobs } from '#functions/jobs/definitions';
import { createJob } from '#functions/jobs/worker';
import { documents, tableName } from '#shared/data/clients';
import { scopeOf } from '#shared/data/scope';
import { counterKey, resourceKey, type StoredResource } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
/** Exports: one made today, and one as made before filing (its keys, count and TTL taken back). */
let newExport: { id: string; expires_at: string };
let oldExportId: string;
/** A job as `createJob` wrote one before filing (d15605a^): the record alone. */
let oldJob: StoredResource;
let newJobId: string;

const DAY = 86_400_000;
const dayOf = (iso: string) => `d${iso.slice(0, 10)}`;

const exportNow = async () => {
  const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/exports`, {
    token: admin,
    body: { data: { type: 'exports', attributes: { subject_type: 'equipment', format: 'csv' } } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
};

/** As `runExport` stored a small export before cccf9be: no gsi1 keys, counted in no day, TTL 30 days on. */
const exportBeforeFiling = async () => {
  const made = await exportNow();
  const createdAt: string = made.meta.created_at;
  const expiresAt = Math.floor(Date.parse(createdAt) / 1000) + RETENTION_DAYS * 86_400;
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: resourceKey(tenant.org.id, exportsDefinition.type, made.id),
      UpdateExpression: 'REMOVE gsi1pk, gsi1sk SET expires_at = :at, meta.expires_at = :iso',
      ExpressionAttributeValues: { ':at': expiresAt, ':iso': new Date(expiresAt * 1000).toISOString() },
    }),
  );
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: counterKey(tenant.org.id, `exports#${tenant.admin.principalId}#days`),
      UpdateExpression: 'ADD #day :less',
      ExpressionAttributeNames: { '#day': dayOf(createdAt) },
      ExpressionAttributeValues: { ':less': -1 },
    }),
  );
  return made.id as string;
};

const jobBeforeFiling = async () => {
  const job = newRecord(jobs, tenant.org.id, {
    attributes: { kind: 'export', status: 'queued', progress: { processed: 0, total: null }, errors: [] },
    rels: { created_by_user: null, created_by_service_account: tenant.admin.principalId },
  });
  await commit(scopeOf([tenant.org.id]), [{ create: { ...job, permission: 'assets:view' } }]);
  return job;
};

const listOf = async (path: 'exports' | 'jobs') => {
  const res = await api.get(`/v3/orgs/${tenant.org.id}/${path}`, admin);
  expect(res.status, res.text).toBe(200);
  return {
    ids: res.body.data.map((r: { id: string }) => r.id).sort(),
    total: res.body.meta.pagination.counts.resources,
  };
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Kept Org', 0);
  admin = await api.token(tenant.admin);
  oldExportId = await exportBeforeFiling();
  const made = await exportNow();
  newExport = { id: made.id, expires_at: made.meta.expires_at };
  oldJob = await jobBeforeFiling();
  // A job as requested today, by the worker's own `createJob` (no worker runs here: it stays queued).
  const principal = {
    id: tenant.admin.principalId,
    kind: 'service-account' as const,
    name: 'Kept Org admin',
    permissions: new Map(),
    teams: {},
  };
  const requested = await createJob(scopeOf([tenant.org.id]), tenant.org.id, 'export', principal, {
    permission: 'assets:view',
  });
  newJobId = requested.id;
});
afterAll(async () => {
  await api?.close();
});

describe('exports and jobs stored before they were filed by creator', () => {
  it('before the migrations, are missing from their creator’s lists and totals', async () => {
    expect(await listOf('exports')).toEqual({ ids: [newExport.id], total: 1 });
    expect(await listOf('jobs')).toEqual({ ids: [newJobId], total: 1 });
  });

  it('after them, are listed and counted as records made today, an export expiring at the end of its day plus 30', async () => {
    const run = await migrate();
    expect(run.finished).toBe(true);
    const changed = Object.fromEntries(run.ran.map((m) => [m.name, m.changed]));
    expect(changed).toMatchObject({ 'exports-by-creator': 1, 'jobs-by-creator': 1 });
    expect(await listOf('exports')).toEqual({ ids: [oldExportId, newExport.id].sort(), total: 2 });
    expect(await listOf('jobs')).toEqual({ ids: [oldJob.id, newJobId].sort(), total: 2 });
    const read = await api.get(`/v3/exports/${oldExportId}`, admin);
    expect(read.status, read.text).toBe(200);
    // Made the same day as the new one: the same end of day, 30 days on.
    expect(read.body.data.meta.expires_at).toBe(newExport.expires_at);
    expect(Date.parse(read.body.data.meta.expires_at) % DAY).toBe(0);
  });

  it('run again from scratch, they change no record and count nothing twice', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
    expect(await listOf('exports')).toMatchObject({ total: 2 });
    expect(await listOf('jobs')).toMatchObject({ total: 2 });
  });
});
