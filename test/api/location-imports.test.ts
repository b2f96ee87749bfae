import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dynamodb } from '#shared/data/clients';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents } from '../support/event-stream';
import { itemCount } from '../support/item-count';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
});
// Each test imports into an organisation of its own: counts and reference claims start empty.
beforeEach(async () => {
  tenant = await newTenant('Imports Org', 0);
  token = await api.token(tenant.admin);
});
afterAll(() => api.close());

const base = () => `/v3/orgs/${tenant.org.id}/governance`;
const importCsv = (csv: string, templateId?: string) =>
  api.request('POST', `${base()}/location-imports`, {
    token,
    body: {
      data: {
        type: 'location-imports',
        attributes: { csv, file_name: 'sites.csv' },
        ...(templateId && {
          relationships: { import_template: { data: { type: 'import-templates', id: templateId } } },
        }),
      },
    },
  });
const locationCount = async () =>
  (await api.get(`${base()}/locations`, token)).body.meta.pagination.counts.resources as number;

const FILE =
  'reference,name,address,latitude,longitude\nS1,North depot,1 Mill Lane,54.33,-2.74\nS2,Reservoir,,54.40,-2.90\n,No reference,,,\nS3,Pumping station,,,\n';

describe('location imports', () => {
  it('imports good rows, rejects bad ones with their line, and records who, when and what', async () => {
    const res = await importCsv(FILE);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes).toMatchObject({
      status: 'completed',
      counts: { rows: 4, created: 3, updated: 0, unchanged: 0, rejected: 1 },
      errors: [{ line: 4, message: 'reference is empty' }],
      source: { kind: 'inline', file_name: 'sites.csv' },
    });
    expect(res.body.data.relationships.author_service_account.data.id).toBe(tenant.admin.principalId);
    expect(await locationCount()).toBe(3);
  });

  it('a re-import of the same file changes nothing and writes nothing', async () => {
    await importCsv(FILE);
    const res = await importCsv(FILE);
    expect(res.body.data.attributes.counts).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 3,
      rejected: 1,
    });
    expect(res.body.data.meta.write_calls).toBe(0);
    expect(await locationCount()).toBe(3);
  });

  it('a corrected re-import updates the matching locations instead of duplicating them', async () => {
    await importCsv(FILE);
    const corrected = FILE.replace('North depot', 'North depot (main)').replace('54.40,-2.90', '54.41,-2.91');
    const res = await importCsv(corrected);
    expect(res.body.data.attributes.counts).toMatchObject({ created: 0, updated: 2, unchanged: 1 });
    expect(await locationCount()).toBe(3);
    const s1 = await api.get(`${base()}/locations?filter[reference]=S1`, token);
    expect(s1.body.data[0].attributes.name).toBe('North depot (main)');
  });

  it('a file without the reference column, or that is not CSV, is 400 and writes nothing', async () => {
    await importCsv(FILE);
    const before = (await api.get(`${base()}/location-imports`, token)).body.meta.pagination.counts.resources;
    for (const csv of ['name,address\nDepot,1 Road\n', '\u0000\u0001\u0002binary', '"unterminated,quote\n']) {
      const res = await importCsv(csv);
      expect(res.status, JSON.stringify(csv)).toBe(400);
      expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/csv' });
    }
    expect((await api.get(`${base()}/location-imports`, token)).body.meta.pagination.counts.resources).toBe(
      before,
    );
    expect(await locationCount()).toBe(3);
  });

  it('an import template maps the file’s own column names', async () => {
    await importCsv(FILE);
    const template = await api.request('POST', `${base()}/import-templates`, {
      token,
      body: {
        data: {
          type: 'import-templates',
          attributes: {
            name: 'Council sites',
            target: 'locations',
            columns: { reference: 'Site Code', name: 'Site Name' },
          },
        },
      },
    });
    expect(template.status, template.text).toBe(201);
    const res = await importCsv(
      'Site Code,Site Name\nC1,Quarry\nS1,North depot (main)\n',
      template.body.data.id,
    );
    expect(res.body.data.attributes.counts).toMatchObject({ created: 1, unchanged: 0, updated: 1 });
    expect(res.body.data.relationships.import_template.data.id).toBe(template.body.data.id);
  });

  it('a location’s reference is unique in the organisation, whether it came from an import or the API', async () => {
    await importCsv(FILE);
    const res = await api.request('POST', `${base()}/locations`, {
      token,
      body: { data: { type: 'locations', attributes: { name: 'Duplicate', reference: 'S2' } } },
    });
    expect(res.status).toBe(409);
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/reference' });
  });

  it('the bulk path emits no per-row audit events: the import record’s entry is the whole load’s', async () => {
    const imported = await importCsv(FILE);
    expect(imported.body.data.attributes.counts.created).toBe(3);
    await deliverEvents(tenant.org.id);
    const audit = (query: string) => api.get(`/v3/orgs/${tenant.org.id}/audit-events?${query}`, token);
    expect((await audit('filter[subject_type]=locations')).body.data).toEqual([]);
    const entries = (await audit('filter[subject_type]=location-imports')).body.data;
    expect(entries.map((e: { attributes: { action: string } }) => e.attributes.action)).toEqual([
      'location-import.created',
    ]);
    expect(entries[0].attributes).toMatchObject({
      subject: { type: 'location-imports', id: imported.body.data.id },
      actor: { kind: 'service-account', id: tenant.admin.principalId },
      after: { attributes: { counts: { created: 3 } } },
    });
  });
});

/**
 * Holds each import's look-up of its references' claims, once answered, until `imports` of them have
 * looked: every one of them then writes believing the shared references free (the race, made certain).
 */
const afterEveryLookUp = (imports: number) => {
  const name = 'claims-looked-up';
  let looked = 0;
  let allLooked!: () => void;
  const together = new Promise<void>((done) => {
    allLooked = done;
  });
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      const input = JSON.stringify((args as { input?: unknown }).input ?? {});
      if (context.commandName === 'BatchGetItemCommand' && input.includes('#location-references')) {
        if (++looked === imports) allLooked();
        await together;
      }
      return out;
    },
    { step: 'initialize', name },
  );
  return () => dynamodb.middlewareStack.remove(name);
};

describe('a reference’s claim holds across concurrent imports (issue 39, 10b)', () => {
  it('two imports sharing references, both looking before either writes: each reference is one location, and the import that lost a row says which', async () => {
    const shared = ['S1', 'S2', 'S3', 'S4', 'S5'];
    const file = (own: string[], name: string) =>
      `reference,name\n${[...shared, ...own].map((r) => `${r},${name} ${r}`).join('\n')}\n`;
    const release = afterEveryLookUp(2);
    let answers: Awaited<ReturnType<typeof importCsv>>[];
    try {
      answers = await Promise.all([importCsv(file(['A1', 'A2', 'A3'], 'A')), importCsv(file(['B1'], 'B'))]);
    } finally {
      release();
    }
    for (const res of answers) expect(res.status, res.text).toBe(201);
    // Every reference is held by exactly one location, and the count agrees.
    for (const reference of [...shared, 'A1', 'A2', 'A3', 'B1']) {
      const found = await api.get(`${base()}/locations?filter[reference]=${reference}`, token);
      expect(found.body.data, reference).toHaveLength(1);
    }
    expect(await locationCount()).toBe(9);
    // Each shared row was written by one import and rejected by the other, which names its line and why.
    const [a, b] = answers.map((res) => res.body.data.attributes);
    expect(a.counts.created + b.counts.created).toBe(9);
    expect(a.counts.rejected + b.counts.rejected).toBe(shared.length);
    const lost = [...a.errors, ...b.errors].map((e: { line: number; message: string }) => {
      expect(e.message).toMatch(/^reference S\d was taken by another location while this import ran$/);
      expect(e.line).toBe(Number(e.message.slice(11, 12)) + 1);
      return e.message.slice(10, 12);
    });
    expect(lost.sort()).toEqual(shared);
    for (const attributes of [a, b])
      expect(attributes.counts.rows).toBe(
        attributes.counts.created +
          attributes.counts.updated +
          attributes.counts.unchanged +
          attributes.counts.rejected,
      );
  });
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

describe('location imports through a presigned upload', () => {
  const declareUpload = (upload: Record<string, unknown>) =>
    api.request('POST', `${base()}/location-imports`, {
      token,
      body: { data: { type: 'location-imports', attributes: { upload, file_name: 'big.csv' } } },
    });
  /** Declares `csv` (its size and SHA-256); `size` overrides the declared size. */
  const declare = (csv: string, size = Buffer.byteLength(csv)) =>
    declareUpload({ size, content_type: 'text/csv', checksum: sha256(csv) });
  const processImport = (id: string) =>
    api.request('POST', `${base()}/location-imports/${id}/process`, { token });

  it('declares the file, uploads it to the presigned URL, then processes it', async () => {
    const csv = 'reference,name\nU1,Upload one\nU2,Upload two\n';
    const declared = await declare(csv);
    expect(declared.status, declared.text).toBe(201);
    expect(declared.body.data.attributes.status).toBe('awaiting_upload');
    const { url, method, headers } = declared.body.data.meta.upload;
    const path = `${base()}/location-imports/${declared.body.data.id}/process`;
    const early = await api.request('POST', path, { token });
    expect(early.status).toBe(409);
    const put = await fetch(url, { method, headers, body: csv });
    expect(put.status).toBe(200);
    const done = await api.request('POST', path, { token });
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.attributes).toMatchObject({
      status: 'completed',
      counts: { created: 2, rejected: 0 },
    });
    expect(done.body.data.meta.upload).toBeUndefined();
    expect((await api.request('POST', path, { token })).status).toBe(409);
  });

  it('the upload must be exactly the declared size: signed into the URL, and checked again before processing', async () => {
    const declared = await declare('reference,name\nX1,Too long.\n', 10);
    const { url, method, headers } = declared.body.data.meta.upload;
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toContain('content-length');
    // fetch sends the body's real length (29 bytes), not the 10 bytes that were signed.
    const put = await fetch(url, {
      method,
      headers: { 'content-type': headers['content-type'] },
      body: 'reference,name\nX1,Too long.\n',
    });
    // Real S3 refuses this PUT; s3rver does not check signed lengths, so the service checks the size too.
    if (put.ok) {
      const res = await api.request('POST', `${base()}/location-imports/${declared.body.data.id}/process`, {
        token,
      });
      expect(res.status).toBe(409);
      expect(res.body.errors[0].detail).toMatch(/declared/);
    }
  });

  it('the presigned upload signs the client’s SHA-256 as a header', async () => {
    const csv = 'reference,name\nH1,Header\n';
    const { url, headers } = (await declare(csv)).body.data.meta.upload;
    const signed = new URL(url).searchParams;
    expect(signed.get('X-Amz-SignedHeaders')?.split(';')).toContain('x-amz-checksum-sha256');
    expect([...signed.keys()].filter((k) => k.toLowerCase().startsWith('x-amz-checksum'))).toEqual([]);
    expect(headers['x-amz-checksum-sha256']).toBe(sha256(csv));
  });

  it('a missing or malformed checksum is 400 at /data/attributes/upload/checksum, and nothing is written', async () => {
    const before = await itemCount();
    for (const checksum of [undefined, '', 'abc', createHash('sha256').update('x').digest('hex')]) {
      const res = await declareUpload({
        size: 10,
        content_type: 'text/csv',
        ...(checksum !== undefined && { checksum }),
      });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
        '/data/attributes/upload/checksum',
      ]);
      expect(res.body.errors[0].detail).toMatch(/SHA-256 of the file, base64-encoded/);
    }
    expect(await itemCount()).toBe(before);
  });

  it('other bytes of the declared size are refused before anything is imported (409, nothing written)', async () => {
    const csv = 'reference,name\nW1,Swap one\n';
    const declared = await declare(csv);
    const { url, method, headers } = declared.body.data.meta.upload;
    // AWS refuses this PUT (the checksum is signed); s3rver stores it.
    const other = 'reference,name\nW9,Swap nin\n';
    expect(Buffer.byteLength(other)).toBe(Buffer.byteLength(csv));
    expect((await fetch(url, { method, headers, body: other })).status).toBe(200);
    const before = await itemCount();
    const res = await processImport(declared.body.data.id);
    expect(res.status).toBe(409);
    expect(res.body.errors[0].detail).toContain(`SHA-256 ${sha256(other)}) is not what was declared`);
    expect(await itemCount()).toBe(before);
    // The declared file, PUT again, is imported.
    await fetch(url, { method, headers, body: csv });
    const done = await processImport(declared.body.data.id);
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.attributes.counts).toMatchObject({ created: 1 });
  });

  it('after processing, other bytes PUT through the same URL change nothing: the record keeps the checksum of what was imported', async () => {
    const csv = 'reference,name\nP1,Pinned one\n';
    const declared = await declare(csv);
    const { url, method, headers } = declared.body.data.meta.upload;
    await fetch(url, { method, headers, body: csv });
    const done = await processImport(declared.body.data.id);
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.attributes.source).toMatchObject({ kind: 'upload', checksum: sha256(csv) });
    const other = 'reference,name\nP9,Pinned nin\n';
    expect((await fetch(url, { method, headers, body: other })).status).toBe(200);
    const before = await itemCount();
    expect((await processImport(declared.body.data.id)).status).toBe(409);
    expect(await itemCount()).toBe(before);
    const record = await api.get(`${base()}/location-imports/${declared.body.data.id}`, token);
    expect(record.body.data.attributes).toEqual(done.body.data.attributes);
    const listed = await api.get(`${base()}/locations?filter[reference]=P9`, token);
    expect(listed.body.data).toEqual([]);
  });

  it('filter[status] finds an import under each status it moves through, counted: awaiting upload, then processing (a file too large for its request, now a job)', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `B${String(i).padStart(5, '0')},Site ${i}`);
    const csv = ['reference,name', ...rows].join('\n');
    expect(Buffer.byteLength(csv)).toBeGreaterThan(64 * 1024);
    const declared = await declare(csv);
    expect(declared.status, declared.text).toBe(201);
    const id = declared.body.data.id as string;
    const under = async (status: string) => {
      const res = await api.get(`${base()}/location-imports?filter[status]=${status}`, token);
      expect(res.status, res.text).toBe(200);
      return {
        ids: res.body.data.map((r: { id: string }) => r.id),
        total: res.body.meta.pagination.counts.resources,
      };
    };
    expect(await under('awaiting_upload')).toEqual({ ids: [id], total: 1 });
    const { url, method, headers } = declared.body.data.meta.upload;
    expect((await fetch(url, { method, headers, body: csv })).status).toBe(200);
    const started = await processImport(id);
    expect(started.status, started.text).toBe(202);
    expect(await under('awaiting_upload')).toEqual({ ids: [], total: 0 });
    expect(await under('processing')).toEqual({ ids: [id], total: 1 });
  });

  it('csv and upload together, or neither, is 400', async () => {
    const res = await api.request('POST', `${base()}/location-imports`, {
      token,
      body: {
        data: {
          type: 'location-imports',
          attributes: { csv: 'a', upload: { size: 1, content_type: 'text/csv', checksum: sha256('a') } },
        },
      },
    });
    expect(res.status).toBe(400);
  });
});
