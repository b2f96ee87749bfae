/**
 * The projects area's migrations (issue 42, items 1 and 3): schemes, work orders and operations stored
 * before their `filter[status]` was answered from an index (i42t-projects^: no `gsi2` entry, in no status
 * count) read back through the API as nodes made today once `migrate` has run; a deleted (parked) node is
 * left for its restore to index. A file of its own so its table holds only these records: the runner walks
 * the whole table once per migration.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemeStatusIndex, workStatusIndex } from '#functions/projects/migrations/node-status-index';
import { documents, tableName } from '#shared/data/clients';
import { scanPage } from '#shared/data/migrations';
import { counterKey } from '#shared/data/stored-resource';
import { deletedKey } from '#shared/data/trees';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
/** One node of each type as stored before the status index, and a work order deleted then. */
const old: Record<'schemes' | 'work-orders' | 'operations', string> = {
  schemes: '',
  'work-orders': '',
  operations: '',
};
let parkedId: string;

const org = () => `/v3/orgs/${tenant.org.id}/projects`;

const created = async (path: string, type: string, relationships?: Record<string, unknown>) => {
  const res = await api.request('POST', `${org()}/${path}`, {
    token: admin,
    body: { data: { type, attributes: { name: `Old ${type}` }, ...(relationships && { relationships }) } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};

/** As a create stored a node before its status had an index: no `gsi2` entry, in no status count. */
const asBeforeStatusIndex = async (type: string, id: string, status: string) => {
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: { pk: `ORG#${tenant.org.id}#${type}`, sk: id },
      UpdateExpression: 'REMOVE gsi2pk, gsi2sk, #counted',
      ExpressionAttributeNames: { '#counted': 'counted' },
    }),
  );
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: counterKey(tenant.org.id, type),
      UpdateExpression: 'ADD #status :less',
      ExpressionAttributeNames: { '#status': `status#${status}` },
      ExpressionAttributeValues: { ':less': -1 },
    }),
  );
};

/** `filter[status]` of a type by offset: its page's ids and its total. */
const withStatus = async (path: string, status: string) => {
  const res = await api.get(`${org()}/${path}?filter[status]=${status}`, admin);
  expect(res.status, res.text).toBe(200);
  return {
    ids: res.body.data.map((r: { id: string }) => r.id),
    total: res.body.meta.pagination.counts.resources,
  };
};

const selected = async () =>
  [
    ...(await scanPage(schemeStatusIndex.select, undefined, 1000)).items,
    ...(await scanPage(workStatusIndex.select, undefined, 1000)).items,
  ].map((i) => i.id);

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Old work', 0);
  admin = await api.token(tenant.admin);
  old.schemes = await created('schemes', 'schemes');
  const scheme = { scheme: { data: { type: 'schemes', id: old.schemes } } };
  old['work-orders'] = await created('work-orders', 'work-orders', scheme);
  old.operations = await created('operations', 'operations', {
    work_order: { data: { type: 'work-orders', id: old['work-orders'] } },
  });
  parkedId = await created('work-orders', 'work-orders', scheme);
  await asBeforeStatusIndex('schemes', old.schemes, 'in_planning');
  await asBeforeStatusIndex('work-orders', old['work-orders'], 'todo');
  await asBeforeStatusIndex('operations', old.operations, 'todo');
  await asBeforeStatusIndex('work-orders', parkedId, 'todo');
  // Deleted before the index: parked with no entry; its delete took it out of no status count.
  expect((await api.request('DELETE', `${org()}/work-orders/${parkedId}`, { token: admin })).status).toBe(
    204,
  );
});
afterAll(() => api?.close());

describe('schemes, work orders and operations stored before their status index', () => {
  it('the migrations select exactly the nodes in place that lack the entry, not the parked one', async () => {
    expect(new Set(await selected())).toEqual(new Set(Object.values(old)));
    const parked = await scanPage(workStatusIndex.select, undefined, 1000);
    expect(parked.items.map((i) => i.pk)).not.toContain(
      deletedKey(tenant.org.id, 'work-orders', parkedId).pk,
    );
  });

  it('before the migrations, filter[status] misses them', async () => {
    expect(await withStatus('schemes', 'in_planning')).toEqual({ ids: [], total: 0 });
    expect(await withStatus('work-orders', 'todo')).toEqual({ ids: [], total: 0 });
    expect(await withStatus('operations', 'todo')).toEqual({ ids: [], total: 0 });
  });

  it('after them, each is found and counted by filter[status] as a node made today', async () => {
    const run = await migrate();
    expect(run.finished).toBe(true);
    expect(Object.fromEntries(run.ran.map((m) => [m.name, m.changed]))).toMatchObject({
      'scheme-status-index': 1,
      'work-status-index': 2,
    });
    expect(await withStatus('schemes', 'in_planning')).toEqual({ ids: [old.schemes], total: 1 });
    expect(await withStatus('work-orders', 'todo')).toEqual({ ids: [old['work-orders']], total: 1 });
    expect(await withStatus('operations', 'todo')).toEqual({ ids: [old.operations], total: 1 });
    expect(await selected()).toEqual([]);
  });

  it('a node deleted before them is indexed and counted by its restore', async () => {
    const res = await api.request('POST', `${org()}/work-orders/${parkedId}/restore`, { token: admin });
    expect(res.status, res.text).toBe(200);
    const todo = await withStatus('work-orders', 'todo');
    expect(new Set(todo.ids)).toEqual(new Set([old['work-orders'], parkedId]));
    expect(todo.total).toBe(2);
  });

  it('run again from scratch, they change no node and count nothing twice', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
    expect((await withStatus('work-orders', 'todo')).total).toBe(2);
  });
});
