/**
 * The documents area's migration (issue 42, item 3): folders stored before they kept their path and
 * subtree tallies (5ef28c1^: no `meta.path`, documents counted per folder alone in `folder-documents#<id>`
 * and `folder-bytes#<id>`) read back as folders made today once `migrate` has run. A file of its own so
 * its table holds only these records: the runner walks the whole table once per migration.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folders, folderTallyKey } from '#functions/documents/definitions';
import { documents, tableName } from '#shared/data/clients';
import { getItem } from '#shared/data/repository';
import { counterKey, resourceKey, type StoredResource } from '#shared/data/stored-resource';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
/** An old tree: Site (one document of 100 bytes) holding Drawings (two, 300 bytes). */
let site: string;
let drawings: string;

const folderNamed = async (name: string, parent?: string) => {
  const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/folders`, {
    token: admin,
    body: {
      data: {
        type: 'folders',
        attributes: { name },
        ...(parent && { relationships: { parent: { data: { type: 'folders', id: parent } } } }),
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};

/** As the old code kept a folder: no `meta.path`, no tally, its own documents in two counters. */
const asBeforeTallies = async (id: string, own: { documents: number; bytes: number }) => {
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: resourceKey(tenant.org.id, folders.type, id),
      UpdateExpression: 'REMOVE #meta.#path',
      ExpressionAttributeNames: { '#meta': 'meta', '#path': 'path' },
    }),
  );
  await documents.send(new DeleteCommand({ TableName: tableName, Key: folderTallyKey(tenant.org.id, id) }));
  for (const [kind, count] of [
    ['documents', own.documents],
    ['bytes', own.bytes],
  ] as const)
    await documents.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...counterKey(tenant.org.id, `folder-${kind}#${id}`), count },
      }),
    );
};

const folderRead = async (id: string) => {
  const res = await api.get(`/v3/folders/${id}`, admin);
  expect(res.status, res.text).toBe(200);
  const { path, document_count, size } = res.body.data.meta;
  return { path, document_count, size };
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Folder Org', 0);
  admin = await api.token(tenant.admin);
  site = await folderNamed('Site');
  drawings = await folderNamed('Drawings', site);
  await asBeforeTallies(site, { documents: 1, bytes: 100 });
  await asBeforeTallies(drawings, { documents: 2, bytes: 300 });
});
afterAll(async () => {
  await api?.close();
});

describe('folders stored before they kept their path and tallies', () => {
  it('before the migration, have no stored path, and their tallies count none of their documents', async () => {
    const stored = await getItem<StoredResource>(resourceKey(tenant.org.id, folders.type, drawings));
    expect(stored?.meta.path).toBeUndefined();
    expect(await getItem(folderTallyKey(tenant.org.id, site))).toBeNull();
    expect(await folderRead(site)).toEqual({ path: undefined, document_count: 0, size: 0 });
  });

  it('after it, answer their path from the root and their whole subtree’s documents and bytes', async () => {
    const run = await migrate();
    expect(run.finished).toBe(true);
    expect(await folderRead(site)).toEqual({ path: '/Site', document_count: 3, size: 400 });
    expect(await folderRead(drawings)).toEqual({ path: '/Site/Drawings', document_count: 2, size: 300 });
    // The old counters are gone: their numbers live in the tallies now.
    expect(await getItem(counterKey(tenant.org.id, `folder-documents#${drawings}`))).toBeNull();
  });

  it('run again from scratch, change no record and count nothing twice', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
    expect(await folderRead(site)).toEqual({ path: '/Site', document_count: 3, size: 400 });
  });
});
