/**
 * The scheme progress migration (issue 42, item 3): schemes and work orders stored before their progress
 * items (b83d0e5^ wrote none: the commit changed no node's shape, it added the items beside them) read
 * back through the API as their twins built today once `migrate` has run: the scheme's `work_orders`, its
 * counts and completeness, `filter[scheme]` on work orders, and the writes that move them afterwards. A
 * file of its own so its table holds only these records: the runner walks the whole table.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressKey } from '#functions/projects/progress-keys';
import { documents, tableName } from '#shared/data/clients';
import { getItem } from '#shared/data/repository';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { idsByCursor } from '../support/cursor-walk';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;

/** One tree's ids by label: `scheme`, work orders `a`, `b` (deleted), `c`, operations `a1`…. */
type Tree = Record<string, string>;
let old: Tree;
let twin: Tree;
/** A scheme stored before, whose progress item the API wrote after the deploy (a work order added). */
let touched: Tree;
let touchedProgress: Record<string, unknown> | null;
/** A scheme stored before and deleted (parked) before the migration, and its twin deleted today. */
let parkedOld: Tree;
let parkedTwin: Tree;

const org = () => `/v3/orgs/${tenant.org.id}/projects`;
const one = (type: string, id: string) => ({ data: { type, id } });

const created = async (path: string, attributes: object, relationships: object = {}) => {
  const res = await api.request('POST', `${org()}/${path}`, {
    token: admin,
    body: { data: { type: path, attributes, relationships } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};

const send = async (method: string, path: string, status: number) => {
  const res = await api.request(method, `${org()}/${path}`, { token: admin });
  expect(res.status, res.text).toBe(status);
};

/**
 * A scheme with work orders `a` (an operation in each bucket, and one deleted), `b` (an operation, then
 * deleted with it beneath) and `c` (none): every way a node leaves or stays in the counts.
 */
const buildTree = async (): Promise<Tree> => {
  const tree: Tree = { scheme: await created('schemes', { name: 'Mains renewal' }) };
  for (const label of ['a', 'b', 'c'])
    tree[label] = await created(
      'work-orders',
      { name: `Section ${label}` },
      { scheme: one('schemes', tree.scheme ?? '') },
    );
  const operations: [string, string, string, string | null][] = [
    ['a1', 'a', 'todo', null],
    ['a2', 'a', 'in_progress', null],
    ['a3', 'a', 'done', 'completed'],
    ['a4', 'a', 'done', 'aborted'],
    ['a5', 'a', 'done', 'cancelled'],
    ['a6', 'a', 'todo', null],
    ['b1', 'b', 'in_progress', null],
  ];
  for (const [label, parent, status, done_reason] of operations)
    tree[label] = await created(
      'operations',
      { name: `Op ${label}`, status, done_reason },
      { work_order: one('work-orders', tree[parent] ?? '') },
    );
  await send('DELETE', `operations/${tree.a6}`, 204);
  await send('DELETE', `work-orders/${tree.b}`, 204);
  return tree;
};

/** As b83d0e5^ stored a tree: its scheme and work orders without progress items. */
const asBeforeProgress = async (tree: Tree, labels = ['scheme', 'a', 'b', 'c']) => {
  for (const label of labels)
    await documents.send(
      new DeleteCommand({ TableName: tableName, Key: progressKey(tenant.org.id, tree[label] ?? '') }),
    );
};

/** A body with each tree's ids replaced by their labels and the times by `T`, so twins compare equal. */
const labelled = (body: unknown, tree: Tree): unknown => {
  let text = JSON.stringify(body).replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"T"');
  for (const [label, id] of Object.entries(tree)) text = text.replaceAll(id, `<${label}>`);
  return JSON.parse(text);
};

/** Every read that answers a scheme's progress, labelled. */
const readsOf = async (tree: Tree) => {
  const get = async (path: string) => {
    const res = await api.get(`${org()}/${path}`, admin);
    expect(res.status, res.text).toBe(200);
    return labelled(res.body, tree);
  };
  const listed = await api.get(`${org()}/schemes?page[limit]=50`, admin);
  expect(listed.status, listed.text).toBe(200);
  return {
    scheme: await get(`schemes/${tree.scheme}`),
    inList: labelled(
      listed.body.data.find((s: { id: string }) => s.id === tree.scheme),
      tree,
    ),
    workOrders: await get(`work-orders?filter[scheme]=${tree.scheme}&sort=name`),
    // A cursor page's links are sealed positions, unlike between twins: the walk's ids compare.
    walked: labelled(
      await idsByCursor(
        api,
        `${org()}/work-orders?filter[scheme]=${tree.scheme}&page[limit]=1&page[cursor]=`,
        admin,
      ),
      tree,
    ),
    withScheme: await get(`work-orders/${tree.a}?include=scheme`),
  };
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Progress before counters', 0);
  admin = await api.token(tenant.admin);
  old = await buildTree();
  twin = await buildTree();
  touched = await buildTree();
  await asBeforeProgress(old);
  await asBeforeProgress(touched);
  // After the deploy, before the migration: a work order added makes the scheme's item, listing that one
  // alone (the moves since the deploy, not the tree): the migration leaves it, as documented.
  touched.late = await created(
    'work-orders',
    { name: 'Late' },
    { scheme: one('schemes', touched.scheme ?? '') },
  );
  touchedProgress = await getItem(progressKey(tenant.org.id, touched.scheme ?? ''), true);
  parkedOld = await buildTree();
  parkedTwin = await buildTree();
  await asBeforeProgress(parkedOld);
  for (const tree of [parkedOld, parkedTwin]) await send('DELETE', `schemes/${tree.scheme}`, 204);
});
afterAll(() => api?.close());

describe('schemes and work orders stored before their progress items', () => {
  it('before the migration, an old scheme answers no work orders and no counts, filter[scheme] nothing, and its work order cannot be deleted', async () => {
    // The delete checks the work order's own progress item at the version it read: there is none (409).
    await send('DELETE', `work-orders/${old.c}`, 409);
    const scheme = await api.get(`${org()}/schemes/${old.scheme}`, admin);
    expect(scheme.body.data.relationships.work_orders.data).toEqual([]);
    expect(scheme.body.data.meta.counts).toMatchObject({ operations: 0, work_orders: 0 });
    const listed = await api.get(`${org()}/work-orders?filter[scheme]=${old.scheme}`, admin);
    expect(listed.body.data).toEqual([]);
    expect((await readsOf(old)).scheme).not.toEqual((await readsOf(twin)).scheme);
  });

  it('after it, every read of the scheme, its list entry, filter[scheme] and a work order with its scheme answer as the twin built today', async () => {
    const run = await migrate();
    expect(run.finished).toBe(true);
    // The old and the parked scheme and their three work orders each, and the touched scheme's three.
    expect(run.ran.find((m) => m.name === 'scheme-progress-items')?.changed).toBe(11);
    expect(await readsOf(old)).toEqual(await readsOf(twin));
  });

  it('a scheme whose progress item the API wrote after the deploy keeps what it wrote: the put is conditional on its absence', async () => {
    expect(touchedProgress).not.toBeNull();
    expect(await getItem(progressKey(tenant.org.id, touched.scheme ?? ''), true)).toEqual(touchedProgress);
  });

  it('a scheme deleted before it answers as its twin once restored', async () => {
    for (const tree of [parkedOld, parkedTwin]) await send('POST', `schemes/${tree.scheme}/restore`, 200);
    expect(await readsOf(parkedOld)).toEqual(await readsOf(parkedTwin));
  });

  it('after it, the writes that move progress move the old tree as the twin: a work order restored with its operations, one deleted, an operation added and finished', async () => {
    for (const tree of [old, twin]) {
      await send('POST', `work-orders/${tree.b}/restore`, 200);
      await send('DELETE', `work-orders/${tree.c}`, 204);
      tree.a7 = await created(
        'operations',
        { name: 'Op a7', status: 'todo' },
        { work_order: one('work-orders', tree.a ?? '') },
      );
      const res = await api.request('PATCH', `${org()}/operations/${tree.a1}`, {
        token: admin,
        body: {
          data: { type: 'operations', id: tree.a1, attributes: { status: 'done', done_reason: 'aborted' } },
        },
      });
      expect(res.status, res.text).toBe(200);
    }
    expect(await readsOf(old)).toEqual(await readsOf(twin));
  });

  it('run again from scratch, it changes nothing and writes nothing', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
    expect(await readsOf(old)).toEqual(await readsOf(twin));
  });
});
