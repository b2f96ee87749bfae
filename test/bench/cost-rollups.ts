/**
 * A `depth=all` cost roll-up of a scheme contract with 1,000 nodes, at 1,000 / 10,000 / 50,000 cost
 * lines: DynamoDB calls, items read and time, all through the real roll-up path. Each node keeps its own
 * lines' sums (functions/costs/node-totals.ts), so the roll-up should read the nodes of the subtree
 * and the root, whatever the number of lines: the minimum is nodes + 1.
 *
 * The lines are written in bulk, and each node's kept sums with them, computed by the same pure sums the
 * roll-up maths uses (`sumsByNode`); `test/api/cost-rollups.test.ts` proves that lines written through the
 * API keep exactly those sums.
 */
import { performance } from 'node:perf_hooks';
import { costLines, costSheets } from '#functions/costs/definitions';
import { keptAttributes } from '#functions/costs/node-totals';
import { costRollUps } from '#functions/costs/roll-ups';
import { CATEGORIES, type CostLine, noSums, sumsByNode } from '#functions/costs/rules/roll-up';
import { operations, schemeContracts, schemes, workOrders } from '#functions/projects/definitions';
import type { Principal } from '#shared/auth/principal';
import { bulkPut } from '#shared/data/bulk';
import { dynamodb } from '#shared/data/clients';
import { uuidv7 } from '#shared/data/ids';
import type { StoredResource } from '#shared/data/stored-resource';
import { treeKeys } from '#shared/data/trees';
import { newRecord } from '#shared/engine/record-writes';

let calls = 0;
let items = 0;
dynamodb.middlewareStack.add(
  (next, context) => async (args) => {
    const result = await next(args);
    calls++;
    // A Query's items scanned; a BatchGetItem's keys asked (the root, in the caller's one organisation).
    const output = result.output as { ScannedCount?: number } | undefined;
    const asked = (args.input as { RequestItems?: Record<string, { Keys: unknown[] }> }).RequestItems;
    items +=
      output?.ScannedCount ??
      (context.commandName === 'BatchGetItemCommand'
        ? Object.values(asked ?? {}).reduce((n, r) => n + r.Keys.length, 0)
        : 0);
    return result;
  },
  { step: 'initialize', name: 'rollUpBenchCounter' },
);

const buildTree = (orgId: string) => {
  const contract = newRecord(schemeContracts, orgId, { attributes: { name: 'Bench contract', code: 'B' } });
  const root = contract.id;
  const nodes: Record<string, unknown>[] = [{ ...contract, ...treeKeys(orgId, root, root) }];
  const sheets: StoredResource[] = [];
  for (let s = 0; s < 10; s++) {
    const scheme = newRecord(schemes, orgId, { attributes: { name: `Scheme ${s}`, status: 'in_planning' } });
    const sp = `${root}/${scheme.id}`;
    nodes.push({ ...scheme, ...treeKeys(orgId, root, sp) });
    for (let w = 0; w < 10; w++) {
      const wo = newRecord(workOrders, orgId, { attributes: { name: `WO ${s}.${w}`, status: 'todo' } });
      const wp = `${sp}/${wo.id}`;
      nodes.push({ ...wo, ...treeKeys(orgId, root, wp), 'costs#sheets': 1 });
      sheets.push(
        newRecord(costSheets, orgId, {
          attributes: { name: 'Sheet', status: 'approved' },
          rels: { work_order: wo.id },
        }),
      );
      for (let o = 0; o < 9; o++) {
        const op = newRecord(operations, orgId, { attributes: { name: `Op ${o}`, status: 'todo' } });
        nodes.push({ ...op, ...treeKeys(orgId, root, `${wp}/${op.id}`) });
      }
    }
  }
  return { root, nodes, sheets };
};

/** `count` lines spread over the sheets, each with the line its node's sums count. */
const linesFor = (orgId: string, sheets: ReturnType<typeof buildTree>['sheets'], count: number) =>
  Array.from({ length: count }, (_, i) => {
    const sheet = sheets[i % sheets.length] ?? { id: '', rels: {} };
    const kind = i % 5 === 0 ? 'estimate' : 'actual';
    const category = CATEGORIES[i % 4] ?? 'misc';
    const record = newRecord(costLines, orgId, {
      attributes: {
        kind,
        quantity: 2,
        snapshot: { category, currency: 'GBP' },
        cost: { amount: 1000, currency: 'GBP' },
        charge: { amount: 1300, currency: 'GBP' },
      },
      rels: { cost_sheet: String(sheet.id), rate_code: uuidv7() },
    });
    const line: CostLine = {
      nodeId: String((sheet.rels as Record<string, unknown>).work_order),
      kind,
      sheetStatus: 'approved',
      category,
      cost: 1000,
      charge: 1300,
      currency: 'GBP',
    };
    return { record, line };
  });

export const benchCostRollUps = async (sizes: number[]) => {
  const runs = [];
  for (const count of sizes) {
    const orgId = uuidv7();
    const { root, nodes, sheets } = buildTree(orgId);
    const lines = linesFor(orgId, sheets, count);
    const sums = sumsByNode(lines.map((l) => l.line));
    await bulkPut([
      ...nodes.map((n) => ({ ...n, ...keptAttributes(sums.get(String(n.id)) ?? noSums()) })),
      ...sheets,
      ...lines.map((l) => l.record),
    ]);
    const principal: Principal = {
      id: 'bench',
      kind: 'service-account',
      name: 'bench',
      permissions: new Map([[orgId, new Set(['cost-lines:view' as const])]]),
      teams: {},
    };
    const filter = `and(eq(organisation,${orgId}),eq(cost_centre,${root}),eq(cost_centre_type,scheme-contracts),eq(depth,all))`;
    calls = 0;
    items = 0;
    const start = performance.now();
    const document = await costRollUps(principal, {
      method: 'GET',
      baseUrl: 'http://bench',
      path: '/v3/cost-rollups',
      query: { filter, limit: '100' },
    });
    const ms = performance.now() - start;
    runs.push({
      lines: count,
      nodes: nodes.length,
      elements: (document.meta as { pagination: { counts: { resources: number } } }).pagination.counts
        .resources,
      dynamodb_calls: calls,
      items_read: items,
      milliseconds: Math.round(ms),
    });
  }
  const first = runs[0];
  const last = runs.at(-1);
  return {
    runs: runs
      .map(
        (r) =>
          `${r.lines} lines: ${r.dynamodb_calls} calls, ${r.items_read} items (${(r.items_read / (r.nodes + 1)).toFixed(2)}× the nodes + the root), ${r.milliseconds} ms`,
      )
      .join('; '),
    items_read_growth_smallest_to_largest:
      first && last ? Number((last.items_read / first.items_read).toFixed(2)) : 0,
    calls_at_largest: last?.dynamodb_calls ?? 0,
    nodes_per_rollup: last?.nodes ?? 0,
    minimum_items_per_rollup: (last?.nodes ?? 0) + 1,
    elements_per_rollup: last?.elements ?? 0,
  };
};
