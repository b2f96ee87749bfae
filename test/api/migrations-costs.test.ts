/**
 * The costs area's migration (issue 42, item 3): cost sheets and lines written before work nodes kept
 * their sums (31720d7^: filed in the tree index after their node's path, no `costs#…` on the node or the
 * sheet) read back through `/v3/cost-rollups` exactly as the same sheets and lines written today, once the
 * migration has run, however often a page of them is handed. Two trees get the same writes through the
 * API; one is then taken back to the old shape. A file of its own so its table holds only these records:
 * the runner walks the whole table once per migration.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costSheets } from '#functions/costs/definitions';
import { costSums } from '#functions/costs/migrations/cost-sums';
import { documents, tableName } from '#shared/data/clients';
import { scanPage } from '#shared/data/migrations';
import type { PageKey } from '#shared/data/repository';
import { getItem } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import { type ItemKey, resourceKey, type StoredResource } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import { changedRecord } from '#shared/engine/record-writes';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
const codes: Record<string, string> = {};

interface Tree {
  nodes: { type: string; id: string }[];
  contract: string;
  op1: string;
  sheets: Record<'contract' | 'scheme' | 'wo1' | 'op1' | 'wo2', string>;
  lines: string[];
}
/** The same writes in each: one tree stays as today's code keeps it, the other is taken back. */
let today: Tree;
let old: Tree;

const org = () => `/v3/orgs/${tenant.org.id}`;
const post = async (path: string, data: object) => {
  const res = await api.request('POST', `${org()}${path}`, { token, body: { data } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const ok = async (method: string, path: string) => {
  const res = await api.request(method, `${org()}${path}`, { token });
  expect(res.status, res.text).toBeLessThan(300);
};
const one = (type: string, id: string) => ({ data: { type, id } });

const addLine = (sheet: string, code: string | undefined, quantity: number, kind = 'actual') =>
  post(`/costs/cost-sheets/${sheet}/lines`, {
    type: 'cost-lines',
    attributes: { kind, quantity, at: '2026-06-01T00:00:00Z' },
    relationships: { rate_code: one('rate-codes', String(code)) },
  });

/** contract → scheme → wo1 → op1, and wo2 under the scheme; a sheet on all but the contract. */
const plant = async (): Promise<Tree> => {
  const contract = await post('/projects/scheme-contracts', {
    type: 'scheme-contracts',
    attributes: { name: 'South', code: 'S' },
  });
  const scheme = await post('/projects/schemes', {
    type: 'schemes',
    attributes: { name: 'Deck', code: 'D' },
    relationships: { contracts: { data: [{ type: 'scheme-contracts', id: contract }] } },
  });
  const wo1 = await post('/projects/work-orders', {
    type: 'work-orders',
    attributes: { name: 'Waterproofing', code: 'WP' },
    relationships: { scheme: one('schemes', scheme) },
  });
  const wo2 = await post('/projects/work-orders', {
    type: 'work-orders',
    attributes: { name: 'Joints', code: 'JT' },
    relationships: { scheme: one('schemes', scheme) },
  });
  const op1 = await post('/projects/operations', {
    type: 'operations',
    attributes: { name: 'Membrane', code: 'M1' },
    relationships: { work_order: one('work-orders', wo1) },
  });
  const sheet = (relationship: string, type: string, id: string, status: string) =>
    post('/costs/cost-sheets', {
      type: 'cost-sheets',
      attributes: { name: `${relationship} sheet`, status },
      relationships: { [relationship]: one(type, id) },
    });
  const sheets = {
    // Estimates alone: nothing a line folds moves this sheet (its version), only its own fold does.
    contract: await sheet('scheme_contract', 'scheme-contracts', contract, 'approved'),
    scheme: await sheet('scheme', 'schemes', scheme, 'quoted'),
    wo1: await sheet('work_order', 'work-orders', wo1, 'approved'),
    op1: await sheet('operation', 'operations', op1, 'completed'),
    wo2: await sheet('work_order', 'work-orders', wo2, 'quoted'),
  };
  const lines = [
    await addLine(sheets.wo1, codes.labour, 2),
    await addLine(sheets.wo1, codes.material, 10),
    await addLine(sheets.wo1, codes.labour, 1, 'estimate'),
    await addLine(sheets.op1, codes.material, 100),
    await addLine(sheets.wo2, codes.labour, 1),
    await addLine(sheets.wo2, codes.labour, 3, 'estimate'),
    await addLine(sheets.scheme, codes.material, 4),
    await addLine(sheets.contract, codes.labour, 5, 'estimate'),
  ];
  return {
    nodes: [
      { type: 'scheme-contracts', id: contract },
      { type: 'schemes', id: scheme },
      { type: 'work-orders', id: wo1 },
      { type: 'work-orders', id: wo2 },
      { type: 'operations', id: op1 },
    ],
    contract,
    op1,
    sheets,
    lines,
  };
};

/** Removes what today's writes keep on a record (`costs#…`), and sets `set` (the old code's filing). */
const takeBack = async (key: ItemKey, set: Record<string, string>) => {
  const record = (await getItem<Record<string, unknown>>(key, true)) ?? {};
  const removed = Object.keys(record).filter((name) => name.startsWith('costs#'));
  const setNames = Object.keys(set);
  const names = [...removed, ...setNames];
  if (names.length === 0) return;
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: key,
      UpdateExpression: [
        setNames.length &&
          `SET ${setNames.map((n) => `#n${names.indexOf(n)} = :n${names.indexOf(n)}`).join(', ')}`,
        removed.length && `REMOVE ${removed.map((_, i) => `#n${i}`).join(', ')}`,
      ]
        .filter(Boolean)
        .join(' '),
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
      ...(setNames.length > 0 && {
        ExpressionAttributeValues: Object.fromEntries(setNames.map((n) => [`:n${names.indexOf(n)}`, set[n]])),
      }),
    }),
  );
};

/**
 * The tree as the old code kept it (31720d7^, `treeEntry`): nodes keep no sums or sheet count, sheets no
 * sums (nor their creator, recorded since), and each sheet and line is filed in the tree index after its
 * node's path.
 */
const asBeforeSums = async (tree: Tree) => {
  const nodes = new Map<string, StoredResource>();
  for (const { type, id } of tree.nodes) {
    const key = resourceKey(tenant.org.id, type, id);
    nodes.set(id, (await getItem<StoredResource>(key, true)) as StoredResource);
    await takeBack(key, {});
  }
  const filing = (nodeId: string, kind: 'sheet' | 'line', id: string) => {
    const node = nodes.get(nodeId) as StoredResource;
    return {
      gsi1pk: `TREE#${tenant.org.id}#${node.tree_root}`,
      gsi1sk: `${node.tree_path}#~${kind}#${id}`,
      node_path: String(node.tree_path),
      tree_root: String(node.tree_root),
    };
  };
  const nodeOfSheet = new Map<string, string>();
  for (const id of Object.values(tree.sheets)) {
    const key = resourceKey(tenant.org.id, 'cost-sheets', id);
    const sheet = (await getItem<StoredResource>(key, true)) as StoredResource;
    const nodeId = String(
      Object.entries(sheet.rels).find(([name]) => !name.startsWith('created_by'))?.[1] ?? '',
    );
    nodeOfSheet.set(id, nodeId);
    await takeBack(key, filing(nodeId, 'sheet', id));
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'REMOVE #rels.#by',
        ExpressionAttributeNames: { '#rels': 'rels', '#by': 'created_by_user' },
      }),
    );
  }
  for (const id of tree.lines) {
    const key = resourceKey(tenant.org.id, 'cost-lines', id);
    const line = (await getItem<StoredResource>(key, true)) as StoredResource;
    await takeBack(key, filing(nodeOfSheet.get(String(line.rels.cost_sheet)) ?? '', 'line', id));
  }
};

/** Every roll-up under the tree's contract, without what names this tree's records (ids, links). */
const rolledUp = async (tree: Tree) => {
  const filter = `and(eq(organisation,${tenant.org.id}),eq(cost_centre,${tree.contract}),eq(cost_centre_type,scheme-contracts),eq(depth,all))`;
  const res = await api.get(`/v3/cost-rollups?filter=${encodeURIComponent(filter)}`, token);
  expect(res.status, res.text).toBe(200);
  return (res.body.data as { attributes: Record<string, unknown> }[]).map(
    ({ attributes: { cost_centre_id: _id, parent_cost_centre_id: _parent, ...rest } }) => rest,
  );
};

/** The same writes on both trees, one after the other. */
const onBoth = async (write: (tree: Tree) => Promise<unknown>) => {
  await write(today);
  await write(old);
};

/** Every sheet and line the migration selects, as a Scan reads them now. */
const selected = async () => {
  const items: StoredResource[] = [];
  let from: PageKey | undefined;
  do {
    const page = await scanPage(costSums.select, from, 1_000);
    items.push(...page.items);
    from = page.next;
  } while (from);
  return items;
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Cost Sums Org', 0);
  token = await api.token(tenant.admin);
  codes.labour = await post('/costs/rate-codes', {
    type: 'rate-codes',
    attributes: { code: 'LAB', name: 'Gang day', category: 'labour' },
  });
  codes.material = await post('/costs/rate-codes', {
    type: 'rate-codes',
    attributes: { code: 'MAT', name: 'Membrane m²', category: 'material' },
  });
  for (const [code, cost, charge] of [
    [codes.labour, 80_000, 100_000],
    [codes.material, 1_500, 2_000],
  ] as const)
    await post(`/costs/rate-codes/${code}/versions`, {
      type: 'rate-code-versions',
      attributes: {
        valid_from: '2026-01-01T00:00:00Z',
        cost: { amount: cost, currency: 'GBP' },
        charge: { amount: charge, currency: 'GBP' },
      },
    });
  today = await plant();
  old = await plant();
  await asBeforeSums(old);
});
afterAll(async () => {
  await api?.close();
});

describe('cost sheets and lines stored before work nodes kept their sums', () => {
  it('before the migration, answer no sheet and none of their amounts on their nodes', async () => {
    const before = await rolledUp(old);
    expect(before.map((r) => r.has_cost_sheet)).toEqual([false, false, false, false, false]);
    expect(before.map((r) => (r.rolled as { cost: { amount: number } }).cost.amount)).toEqual([
      0, 0, 0, 0, 0,
    ]);
    expect((await rolledUp(today))[0]?.rolled).toMatchObject({ cost: { amount: 411_000 } });
    expect(await selected()).toHaveLength(5 + 8);
  });

  it('written to after the deploy (a status move, a new line, a node deleted), then migrated page by page with pages handed twice at once, answer exactly as the same writes made today', async () => {
    // Between the deploy and the migration, today's code writes to old records: an approved sheet
    // completed (its old lines not yet on its node), a line added, the operation deleted (parked).
    await onBoth((tree) => ok('POST', `/costs/cost-sheets/${tree.sheets.wo1}/complete`));
    await onBoth((tree) => addLine(tree.sheets.wo2, codes.material, 7));
    await onBoth((tree) => ok('DELETE', `/projects/operations/${tree.op1}`));

    const items = await selected();
    expect(items).toHaveLength(13);
    const readBefore = items.find((item) => item.id === old.sheets.contract) as StoredResource;
    // A run cut short after its first page; then every page handed twice at once, as two runners (or a
    // page redone after a crash, its progress unsaved) would hand them: each is folded once.
    const first = await costSums.migrate(items.slice(0, 4), new Date());
    const [a, b] = await Promise.all([
      costSums.migrate(items, new Date()),
      costSums.migrate(items, new Date()),
    ]);
    expect(first + a + b).toBe(items.length);
    expect(await selected()).toEqual([]);

    const run = await migrate();
    expect(run.finished).toBe(true);
    expect(run.ran.find((m) => m.name === 'work-node-cost-sums')).toMatchObject({
      changed: 0,
      finished: true,
    });

    // A replace of a sheet read before its fold (a rename racing the migration) cannot file it again.
    const renamed = changedRecord(costSheets, readBefore, { attributes: { name: 'Renamed' } });
    await expect(commit(scopeOf([tenant.org.id]), [{ replace: renamed, was: readBefore }])).rejects.toThrow(
      WriteRefused,
    );
    expect(await selected()).toEqual([]);

    await onBoth((tree) => ok('POST', `/projects/operations/${tree.op1}/restore`));
    expect(await rolledUp(old)).toEqual(await rolledUp(today));
    // The sheets' own sums came too: a status move after the migration moves the old lines with it.
    await onBoth((tree) => ok('POST', `/costs/cost-sheets/${tree.sheets.wo1}/reopen`));
    const reopened = await rolledUp(today);
    expect(await rolledUp(old)).toEqual(reopened);
    expect(reopened[0]).toMatchObject({ has_cost_sheet: true, rolled: { cost: { amount: 421_500 } } });
  });

  it('run again from scratch, change no record and fold nothing twice', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
    expect(await rolledUp(old)).toEqual(await rolledUp(today));
  });
});
