/**
 * The filter index migrations of folders, documents and versions (issue 42, item 1): records stored before
 * their filters were indexed (folders: no `lsi2` parent entry, no `gsi2` scheme entry; documents: no
 * `lsi1`/`lsi2`/`gsi2` entries per folder; versions: no `lsi1` entry per document: what the code before
 * wrote) are missed by those filters until `migrate` has run, then answer as records written today. A file
 * of its own so its table holds only these records: the runner walks the whole table once per migration.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, folders } from '#functions/documents/definitions';
import { documentVersions } from '#functions/documents/versions/definition';
import type { StoredResource } from '#shared/data/stored-resource';
import { fileChild } from '#shared/engine/children';
import { newRecord } from '#shared/engine/record-writes';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

const PARENT = randomUUID();
const SCHEME = randomUUID();

let api: TestApi;
let tenant: Tenant;
let admin: string;
/** Written today: a subfolder of PARENT under SCHEME. */
let today: StoredResource;
/** As the former code stored them: a subfolder of PARENT under SCHEME, a subfolder of PARENT, a root. */
let old: StoredResource[];

/** The record without the entries the filters gained: what the former code's `indexed` stored. */
const asBeforeFilterIndex = ({ lsi2, gsi2pk, gsi2sk, ...record }: StoredResource): StoredResource => record;

/** A document or version without the per-parent entries its filters gained. */
const asBeforeChildIndex = ({ lsi1, lsi2, gsi2pk, gsi2sk, ...record }: StoredResource): StoredResource =>
  record;

const file = (folder: StoredResource, name: string, status: string, minute: number) =>
  fileChild(
    folder,
    newRecord(
      documents,
      tenant.org.id,
      {
        attributes: {
          name,
          status,
          content_type: status === 'pending' ? null : 'application/pdf',
          size: null,
          checksum: null,
          version_count: 1,
        },
        rels: { folder: folder.id, current_version: null },
      },
      new Date(Date.UTC(2026, 0, 5, 10, minute)),
    ),
  );

let shelf: StoredResource;
/** As the former code stored them: a pending and an available document, and a pending version. */
let oldDocuments: StoredResource[];
let oldVersion: StoredResource;

const folder = (name: string, rels: Record<string, string>, minute: number) =>
  newRecord(
    folders,
    tenant.org.id,
    { attributes: { name }, rels },
    new Date(Date.UTC(2026, 0, 5, 9, minute)),
  );

const filtered = async (query: string) => {
  const res = await api.get(`/v3/orgs/${tenant.org.id}/folders?${query}&sort=created_at`, admin);
  expect(res.status, res.text).toBe(200);
  return {
    ids: res.body.data.map((f: { id: string }) => f.id),
    total: res.body.meta.pagination.counts.resources,
  };
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Folder filter migration', 0);
  admin = await api.token(tenant.admin);
  old = [
    folder('Drawings', { parent: PARENT, scheme: SCHEME }, 1),
    folder('Permits', { parent: PARENT }, 2),
    folder('Site', {}, 3),
  ];
  today = folder('Photos', { parent: PARENT, scheme: SCHEME }, 4);
  shelf = folder('Shelf', {}, 5);
  oldDocuments = [file(shelf, 'Plan', 'pending', 1), file(shelf, 'Permit', 'available', 2)];
  const first = oldDocuments[0] as StoredResource;
  oldVersion = fileChild(
    first,
    newRecord(
      documentVersions,
      tenant.org.id,
      {
        attributes: {
          number: 1,
          status: 'pending',
          content_type: 'application/pdf',
          size: 1,
          checksum: 'x',
          uploaded_at: null,
        },
        rels: { document: first.id },
      },
      new Date(Date.UTC(2026, 0, 5, 10, 3)),
    ),
  );
  await bulkPutCounted([
    ...old.map(asBeforeFilterIndex),
    today,
    shelf,
    ...[...oldDocuments, oldVersion].map(asBeforeChildIndex),
  ]);
});
afterAll(async () => {
  await api?.close();
});

describe('folders, documents and versions stored before their filters were indexed', () => {
  const [drawings, permits, site] = [0, 1, 2].map((i) => () => old[i]?.id) as [
    () => string,
    () => string,
    () => string,
  ];

  it('before the migration, are missed by filter[parent] and filter[scheme], and listed unfiltered', async () => {
    expect(await filtered(`filter[parent]=${PARENT}`)).toEqual({ ids: [today.id], total: 1 });
    expect(await filtered(`filter[scheme]=${SCHEME}`)).toEqual({ ids: [today.id], total: 1 });
    expect((await filtered('page[limit]=10')).total).toBe(5);
    const pending = await api.get(`/v3/folders/${shelf.id}/documents?filter[status]=pending`, admin);
    expect(pending.body.data).toEqual([]);
    const versions = await api.get(
      `/v3/documents/${oldDocuments[0]?.id}/versions?filter[status]=pending`,
      admin,
    );
    expect(versions.body.data).toEqual([]);
  });

  it('after it, answer every filter as folders written today do', async () => {
    const run = await migrate();
    expect(run.finished).toBe(true);
    // The root has no entry to gain; the two subfolders each gain theirs.
    expect(run.ran.find((m) => m.name === 'folder-filter-index')?.changed).toBe(2);
    // Two documents and a version; the folder holding them had nothing to gain.
    expect(run.ran.find((m) => m.name === 'document-filter-index')?.changed).toBe(3);
    expect(await filtered(`filter[parent]=${PARENT}`)).toEqual({
      ids: [drawings(), permits(), today.id],
      total: 3,
    });
    expect(await filtered(`filter[scheme]=${SCHEME}`)).toEqual({ ids: [drawings(), today.id], total: 2 });
    expect(await filtered('filter[name]=Site')).toEqual({ ids: [site()], total: 1 });
  });

  it("after it, a folder's documents and a document's versions answer their filters as those written today do", async () => {
    const docs = (query: string) =>
      api.get(`/v3/folders/${shelf.id}/documents?${query}&sort=created_at`, admin);
    const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((d) => d.id);
    expect(ids(await docs('filter[status]=pending'))).toEqual([oldDocuments[0]?.id]);
    expect(ids(await docs('filter[content_type]=application/pdf'))).toEqual([oldDocuments[1]?.id]);
    expect(ids(await docs('filter[created_at.since]=2026-01-05T10:00:00Z'))).toEqual(
      oldDocuments.map((d) => d.id),
    );
    const versions = await api.get(
      `/v3/documents/${oldDocuments[0]?.id}/versions?filter[status]=pending`,
      admin,
    );
    expect(ids(versions)).toEqual([oldVersion.id]);
  });

  it('run again from scratch, change no record and write nothing', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
  });
});
