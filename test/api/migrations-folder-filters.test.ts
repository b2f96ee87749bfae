/**
 * The folders' filter index migration (issue 42, item 1): folders stored before `filter[parent]` and
 * `filter[scheme]` were indexed (no `lsi2` parent entry, no `gsi2` scheme entry: what the code before it
 * wrote) are missed by those filters until `migrate` has run, then answer as folders written today. A file
 * of its own so its table holds only these records: the runner walks the whole table once per migration.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folders } from '#functions/documents/definitions';
import type { StoredResource } from '#shared/data/stored-resource';
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
  await bulkPutCounted([...old.map(asBeforeFilterIndex), today]);
});
afterAll(async () => {
  await api?.close();
});

describe('folders stored before their filters were indexed', () => {
  const [drawings, permits, site] = [0, 1, 2].map((i) => () => old[i]?.id) as [
    () => string,
    () => string,
    () => string,
  ];

  it('before the migration, are missed by filter[parent] and filter[scheme], and listed unfiltered', async () => {
    expect(await filtered(`filter[parent]=${PARENT}`)).toEqual({ ids: [today.id], total: 1 });
    expect(await filtered(`filter[scheme]=${SCHEME}`)).toEqual({ ids: [today.id], total: 1 });
    expect((await filtered('page[limit]=10')).total).toBe(4);
  });

  it('after it, answer every filter as folders written today do', async () => {
    const run = await migrate();
    expect(run.finished).toBe(true);
    // The root has no entry to gain; the two subfolders each gain theirs.
    expect(run.ran.find((m) => m.name === 'folder-filter-index')?.changed).toBe(2);
    expect(await filtered(`filter[parent]=${PARENT}`)).toEqual({
      ids: [drawings(), permits(), today.id],
      total: 3,
    });
    expect(await filtered(`filter[scheme]=${SCHEME}`)).toEqual({ ids: [drawings(), today.id], total: 2 });
    expect(await filtered('filter[name]=Site')).toEqual({ ids: [site()], total: 1 });
  });

  it('run again from scratch, change no record and write nothing', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
  });
});
