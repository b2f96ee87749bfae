/**
 * Exports: the subject decides authorisation (no export permission of its own) and the file holds
 * exactly what the caller could list. Up to EXPORT_INLINE_ROWS rows (1,000 in the tests) the file is
 * written within the request (201); a larger collection, and every cost roll-up, is a job (202, issue 18
 * item 5) that writes the file in parts (64 KiB in the tests), saving a checkpoint after each.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportsDefinition } from '#functions/exports/definitions';
import { compareCollated } from '#shared/data/collation';
import { uuidv7 } from '#shared/data/ids';
import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import { createServiceAccountClient, grantRole } from '../../infra/local/records';
import { type ApiResponse, startTestApi, type TestApi } from '../support/api';
import { assertJsonApiDocument } from '../support/conformance';
import { putContacts } from '../support/customer-contacts';
import { finished, killMidJob, startJobs, watchJob } from '../support/job-workers';
import { queryScans } from '../support/query-scans';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: string;
let assetsOnly: string;
let jobs: Awaited<ReturnType<typeof startJobs>>;

const BULK = 1_200;

beforeAll(async () => {
  api = await startTestApi();
  jobs = await startJobs();
  [tenant, other] = await Promise.all([newTenant('Exports Org', 0), newTenant('Exports Other', 0)]);
  admin = await api.token(tenant.admin);
  const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/roles`, {
    token: admin,
    body: { data: { type: 'roles', attributes: { name: 'Assets only', permissions: ['assets:view'] } } },
  });
  const client = await createServiceAccountClient('Assets reader', [
    { org_id: tenant.org.id, role: role.body.data.id },
  ]);
  await grantRole(tenant.org.id, role.body.data.id, 'service_account', client.principalId);
  assetsOnly = await api.token(client);
  // A collection over the inline limit, several DynamoDB pages and file parts long.
  await putContacts(tenant.org.id, BULK);
  await api.request('POST', `/v3/orgs/${tenant.org.id}/customers/contacts`, {
    token: admin,
    body: {
      data: {
        type: 'customer-contacts',
        attributes: { association: 'agent', first_name: 'Evil', last_name: '=HYPERLINK("http://x")' },
      },
    },
  });
});
afterAll(async () => {
  await jobs?.stop();
  await api.close();
});

const exportOf = (token: string, attributes: object, orgId = tenant.org.id) =>
  api.request('POST', `/v3/orgs/${orgId}/exports`, {
    token,
    body: { data: { type: 'exports', attributes } },
  });
const fetchFile = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

/** A 202's job followed to its end; the export it wrote, as its creator reads it. */
const exportedBy = async (accepted: ApiResponse, token = admin) => {
  expect(accepted.status, accepted.text).toBe(202);
  expect(accepted.body.data).toMatchObject({
    type: 'jobs',
    attributes: { kind: 'export', status: 'queued' },
  });
  // The export it fills is there from the start; its download only once its file is complete.
  const early = await api.get(`/v3/exports/${accepted.body.data.relationships.export.data.id}`, token);
  expect(early.status).toBe(200);
  expect(early.body.data.meta.download === undefined).toBe(
    early.body.data.attributes.status === 'processing',
  );
  const seen = await watchJob(api, token, accepted.body.data.id, finished);
  const job = seen.at(-1)?.body.data;
  expect(job.attributes.status, JSON.stringify(job.attributes.errors)).toBe('succeeded');
  const read = await api.get(`/v3/exports/${job.relationships.export.data.id}`, token);
  expect(read.status).toBe(200);
  return { job, seen, record: read.body.data, file: await fetchFile(read.body.data.meta.download.url) };
};

describe('POST /v3/orgs/{org_id}/exports', () => {
  it('a CSV of a filtered subject holds exactly the rows the caller’s list shows; the record keeps rows, size and checksum', async () => {
    const res = await exportOf(admin, {
      subject_type: 'customer-contacts',
      format: 'csv',
      filters: { association: 'owner' },
    });
    expect(res.status, res.text).toBe(201);
    const { attributes, meta } = res.body.data;
    expect(attributes).toMatchObject({
      subject_type: 'customer-contacts',
      format: 'csv',
      filters: { association: 'owner' },
      row_count: 400,
    });
    const file = await fetchFile(meta.download.url);
    expect(file.length).toBe(attributes.size);
    expect(createHash('sha256').update(file).digest('base64')).toBe(attributes.checksum);
    const lines = file.toString('utf8').trim().split('\r\n');
    expect(lines).toHaveLength(401);
    expect(lines[0]).toBe(
      'id,association,first_name,last_name,accounts_id,author_id,author_service_account_id,interactions_id,created_at,updated_at',
    );
    const listed = await api.get(
      `/v3/orgs/${tenant.org.id}/customers/contacts?filter[association]=owner&sort=last_name&limit=100`,
      admin,
    );
    expect(listed.body.meta.pagination.counts.resources).toBe(400);
    const exported = new Set(lines.slice(1).map((l) => l.split(',')[0]));
    for (const contact of listed.body.data) expect(exported.has(contact.id)).toBe(true);
  });

  it('the file’s key holds ids only (issue 15, finding 3); its download is named after what it holds', async () => {
    const res = await exportOf(admin, { subject_type: 'vehicles', format: 'json' });
    expect(res.status, res.text).toBe(201);
    const { id, attributes, meta } = res.body.data;
    const stored = await getItem<StoredResource>(exportsDefinition.keyOf(tenant.org.id, id));
    expect(stored?.object_key).toBe(`${tenant.org.id}/${id}.json`);
    expect(attributes.object_key).toBeUndefined();
    expect(attributes.file_name).toMatch(/^vehicles-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.json$/);
    const file = await fetch(meta.download.url);
    expect(new URL(meta.download.url).pathname).toMatch(new RegExp(`/${stored?.object_key}$`));
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename=${attributes.file_name}`);
  });

  it('over the inline limit it is a job (202): its file holds every record once, in the list’s order', async () => {
    const { job, seen, record, file } = await exportedBy(
      await exportOf(admin, { subject_type: 'customer-contacts', format: 'csv', sort: 'last_name' }),
    );
    expect(job.attributes.progress).toEqual({ processed: BULK + 1, total: BULK + 1 });
    // Progress shows while it runs: rows written so far; the total is known when it ends.
    const running = seen.map((r) => r.body.data.attributes).filter((a) => a.status === 'running');
    for (const a of running) expect(a.progress.total).toBeNull();
    expect(record.attributes).toMatchObject({ status: 'complete', row_count: BULK + 1, size: file.length });
    expect(createHash('sha256').update(file).digest('base64')).toBe(record.attributes.checksum);
    const rows = file.toString('utf8').trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(BULK + 1);
    expect(new Set(rows.map((r) => r.split(',')[0])).size).toBe(BULK + 1);
    const lastNames = rows.map((r) => r.split(',')[3] ?? '');
    expect(lastNames).toEqual([...lastNames].sort(compareCollated));
  }, 120_000);

  it('a JSON file written by a job is one valid collection document across its parts', async () => {
    const { file, record } = await exportedBy(
      await exportOf(admin, { subject_type: 'customer-contacts', format: 'json' }),
    );
    const document = JSON.parse(file.toString('utf8'));
    assertJsonApiDocument(document);
    expect(document.data).toHaveLength(BULK + 1);
    expect(document.meta.rows).toBe(BULK + 1);
    expect(record.attributes.row_count).toBe(BULK + 1);
  }, 120_000);

  it('a worker killed mid-export is replaced once its lease runs out; the file has every record once', async () => {
    // 6,000 rows: six pages of 1,000, each over a 64 KiB part and so a checkpoint, so there is a moment
    // between the first checkpoint and the last to stop it in.
    const rows = 6_000;
    const own = await newTenant('Exports Killed', 0);
    const token = await api.token(own.admin);
    await putContacts(own.org.id, rows);
    const accepted = await exportOf(token, { subject_type: 'customer-contacts', format: 'csv' }, own.org.id);
    expect(accepted.status, accepted.text).toBe(202);
    const jobId = accepted.body.data.id;
    const seen = await killMidJob(api, token, jobId, jobs, rows);
    const job = seen.at(-1)?.body.data;
    expect(job.attributes).toMatchObject({ status: 'succeeded', progress: { processed: rows, total: rows } });
    const read = await api.get(`/v3/exports/${job.relationships.export.data.id}`, token);
    const file = await fetchFile(read.body.data.meta.download.url);
    expect(createHash('sha256').update(file).digest('base64')).toBe(read.body.data.attributes.checksum);
    const lines = file.toString('utf8').trim().split('\r\n').slice(1);
    expect(lines).toHaveLength(rows);
    expect(new Set(lines.map((r) => r.split(',')[0])).size).toBe(rows);
  }, 180_000);

  it('JSON:API JSON is a valid collection document', async () => {
    const res = await exportOf(admin, {
      subject_type: 'customer-contacts',
      format: 'json',
      filters: { association: 'agent' },
    });
    expect(res.status, res.text).toBe(201);
    const document = JSON.parse((await fetchFile(res.body.data.meta.download.url)).toString('utf8'));
    assertJsonApiDocument(document);
    expect(document.data).toHaveLength(1);
    expect(document.data[0].type).toBe('customer-contacts');
  });

  it('a cell a spreadsheet would run as a formula is written as text', async () => {
    const res = await exportOf(admin, {
      subject_type: 'customer-contacts',
      format: 'csv',
      filters: { association: 'agent' },
    });
    const text = (await fetchFile(res.body.data.meta.download.url)).toString('utf8');
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
  });

  it('a caller without the subject’s list permission cannot export it (403), but can export what it may list', async () => {
    const refused = await exportOf(assetsOnly, { subject_type: 'customer-contacts', format: 'csv' });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].detail).toMatch(/customers:view/);
    const allowed = await exportOf(assetsOnly, { subject_type: 'equipment', format: 'csv' });
    expect(allowed.status, allowed.text).toBe(201);
    expect(allowed.body.data.attributes.row_count).toBe(0);
  });

  it('another organisation is 404; a filter or sort the subject does not offer is 400 at its pointer', async () => {
    expect(
      (await exportOf(await api.token(other.admin), { subject_type: 'customer-contacts', format: 'csv' }))
        .status,
    ).toBe(404);
    const badFilter = await exportOf(admin, {
      subject_type: 'customer-contacts',
      format: 'csv',
      filters: { postcode: 'X' },
    });
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.errors[0].source.pointer).toBe('/data/attributes/filters/postcode');
    const badSort = await exportOf(admin, {
      subject_type: 'customer-contacts',
      format: 'csv',
      sort: 'nickname',
    });
    expect(badSort.body.errors[0].source.pointer).toBe('/data/attributes/sort');
    const badSubject = await exportOf(admin, { subject_type: 'secrets', format: 'csv' });
    expect(badSubject.body.errors[0].source.pointer).toBe('/data/attributes/subject_type');
  });
});

describe('cost roll-up exports', () => {
  it('filters.filter is the roll-up expression; the file holds each node’s roll-up; cost-lines:view decides', async () => {
    const post = async (path: string, type: string, attributes: object, relationships?: object) => {
      const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/projects/${path}`, {
        token: admin,
        body: { data: { type, attributes, ...(relationships && { relationships }) } },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.data.id as string;
    };
    const contract = await post('scheme-contracts', 'scheme-contracts', { name: 'Export region' });
    await post(
      'schemes',
      'schemes',
      { name: 'Export scheme' },
      { contracts: { data: [{ type: 'scheme-contracts', id: contract }] } },
    );
    const filter = `and(eq(organisation,${tenant.org.id}),eq(cost_centre,${contract}),eq(cost_centre_type,scheme-contracts),eq(depth,all))`;
    // A roll-up's totals need its whole subtree: it is always a job, the bulk path for large roll-ups.
    const { record, file } = await exportedBy(
      await exportOf(admin, { subject_type: 'cost-rollups', format: 'csv', filters: { filter } }),
    );
    expect(record.attributes.row_count).toBe(2);
    const lines = file.toString('utf8').trim().split('\r\n');
    expect(lines[0]?.split(',')).toContain('cost_centre_type');
    expect(lines[1]).toContain(contract);
    // What can be checked before the job is: a node that is not there is 404 now, not a failed job.
    const missing = await exportOf(admin, {
      subject_type: 'cost-rollups',
      format: 'csv',
      filters: { filter: filter.replace(contract, uuidv7()) },
    });
    expect(missing.status, missing.text).toBe(404);
    expect(
      (await exportOf(assetsOnly, { subject_type: 'cost-rollups', format: 'csv', filters: { filter } }))
        .status,
    ).toBe(403);
    const foreign = await exportOf(admin, {
      subject_type: 'cost-rollups',
      format: 'csv',
      filters: { filter: filter.replace(tenant.org.id, other.org.id) },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0].source.pointer).toBe('/data/attributes/filters/filter');
  }, 120_000);
});

describe('export records', () => {
  it('are their creator’s: listed and read (with a fresh download) by them, 404 for anyone else', async () => {
    const created = await exportOf(assetsOnly, { subject_type: 'vehicles', format: 'json' });
    const id = created.body.data.id;
    const mine = await api.get(`/v3/orgs/${tenant.org.id}/exports`, assetsOnly);
    expect(mine.body.data.map((e: { id: string }) => e.id)).toContain(id);
    const theirs = await api.get(`/v3/orgs/${tenant.org.id}/exports`, admin);
    expect(theirs.body.data.map((e: { id: string }) => e.id)).not.toContain(id);
    const read = await api.get(`/v3/exports/${id}`, assetsOnly);
    expect(read.status).toBe(200);
    expect((await fetch(read.body.data.meta.download.url)).status).toBe(200);
    expect((await api.get(`/v3/exports/${id}`, admin)).status).toBe(404);
    expect(
      Date.parse(read.body.data.meta.expires_at) - Date.parse(read.body.data.meta.created_at),
    ).toBeGreaterThan(29 * 86_400_000);
  });

  it('the list reads the caller’s own a page at a time, never another’s or the whole month (issue 19, row 3), and counts them by day', async () => {
    const path = `/v3/orgs/${tenant.org.id}/exports?page[limit]=1`;
    const before = (await api.get(path, assetsOnly)).body.meta.pagination.counts.resources as number;
    for (let i = 0; i < 3; i++) await exportOf(assetsOnly, { subject_type: 'vehicles', format: 'csv' });
    await exportOf(admin, { subject_type: 'vehicles', format: 'csv' });
    const { result: page, scanned } = await queryScans(
      (pk) => pk.startsWith('EXPORTS#'),
      () => api.get(path, assetsOnly),
    );
    expect(page.status, page.text).toBe(200);
    expect(page.body.meta.pagination.counts.resources).toBe(before + 3);
    expect(scanned).toEqual([1]);
    expect(page.body.data[0].relationships.created_by_service_account.data).not.toBeNull();
  });
});
