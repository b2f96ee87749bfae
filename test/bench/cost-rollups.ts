/**
 * A `depth=all` cost roll-up of a scheme contract with 1,000 nodes, at 1,000 / 10,000 / 50,000 cost
 * lines: DynamoDB calls, items read and time, all through the real roll-up path. The subtree is read by
 * paged Queries on one index, so calls should follow bytes (1 MB pages), not the number of nodes.
 */
import { performance } from 'node:perf_hooks';
import type { Principal } from '#shared/auth/principal';
import { bulkPut } from '#shared/data/bulk';
import { dynamodb } from '#shared/data/clients';
import { uuidv7 } from '#shared/data/ids';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { subtree, treeKeys } from '#shared/data/trees';
import { costLines, costSheets } from '#shared/resources/costs/definitions';
import { costRollUps } from '#shared/resources/costs/roll-ups';
import { operations, schemeContracts, schemes, workOrders } from '#shared/resources/projects/definitions';
import { newRecord } from '#shared/resources/record-writes';

let calls = 0;
let items = 0;
dynamodb.middlewareStack.add(
  (next) => async (args) => {
    const result = await next(args);
    calls++;
    items += (result.output as { ScannedCount?: number } | undefined)?.ScannedCount ?? 0;
    return result;
  },
  { step: 'initialize', name: 'rollUpBenchCounter' },
);

const buildTree = (orgId: string) => {
  const contract = {
    ...newRecord(schemeContracts, orgId, { attributes: { name: 'Bench contract', code: 'B' } }),
  };
  const root = contract.id;
  const records: Record<string, unknown>[] = [{ ...contract, ...treeKeys(orgId, root, root) }];
  const sheets: { sheet: Record<string, unknown>; path: string }[] = [];
  for (let s = 0; s < 10; s++) {
    const scheme = newRecord(schemes, orgId, { attributes: { name: `Scheme ${s}`, status: 'in_planning' } });
    const sp = `${root}/${scheme.id}`;
    records.push({ ...scheme, ...treeKeys(orgId, root, sp) });
    for (let w = 0; w < 10; w++) {
      const wo = newRecord(workOrders, orgId, { attributes: { name: `WO ${s}.${w}`, status: 'todo' } });
      const wp = `${sp}/${wo.id}`;
      records.push({ ...wo, ...treeKeys(orgId, root, wp) });
      const sheet = newRecord(costSheets, orgId, {
        attributes: { name: 'Sheet', status: 'approved' },
        rels: { work_order: wo.id },
      });
      const placed = {
        ...sheet,
        gsi1pk: `TREE#${orgId}#${root}`,
        gsi1sk: `${wp}#~sheet#${sheet.id}`,
        node_path: wp,
        tree_root: root,
      };
      records.push(placed);
      sheets.push({ sheet: placed, path: wp });
      for (let o = 0; o < 9; o++) {
        const op = newRecord(operations, orgId, { attributes: { name: `Op ${o}`, status: 'todo' } });
        records.push({ ...op, ...treeKeys(orgId, root, `${wp}/${op.id}`) });
      }
    }
  }
  return { root, records, sheets };
};

const linesFor = (
  orgId: string,
  root: string,
  sheets: { sheet: Record<string, unknown>; path: string }[],
  count: number,
) =>
  Array.from({ length: count }, (_, i) => {
    const { sheet, path } = sheets[i % sheets.length] ?? { sheet: {}, path: '' };
    const line = newRecord(costLines, orgId, {
      attributes: {
        kind: i % 5 === 0 ? 'estimate' : 'actual',
        quantity: 2,
        snapshot: { category: ['material', 'labour', 'misc', 'contractor'][i % 4], currency: 'GBP' },
        cost: { amount: 1000, currency: 'GBP' },
        charge: { amount: 1300, currency: 'GBP' },
      },
      rels: { cost_sheet: String(sheet.id), rate_code: uuidv7() },
    });
    return {
      ...line,
      gsi1pk: `TREE#${orgId}#${root}`,
      gsi1sk: `${path}#~line#${line.id}`,
      node_path: path,
      tree_root: root,
    };
  });

export const benchCostRollUps = async (sizes: number[]) => {
  const runs = [];
  for (const lines of sizes) {
    const orgId = uuidv7();
    const { root, records, sheets } = buildTree(orgId);
    await bulkPut([...records, ...linesFor(orgId, root, sheets, lines)]);
    const principal: Principal = {
      id: 'bench',
      kind: 'service-account',
      name: 'bench',
      permissions: new Map([[orgId, new Set(['cost-lines:view' as const])]]),
      teams: {},
    };
    const filter = `and(eq(organisation,${orgId}),eq(cost_centre,${root}),eq(cost_centre_type,scheme-contracts),eq(depth,all))`;
    // The subtree read alone, then the whole roll-up: the difference is the service's own work.
    const rootRecord = records[0] as unknown as StoredResource;
    const readStart = performance.now();
    await subtree(scopeOf([orgId]), rootRecord);
    const readMs = performance.now() - readStart;
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
      lines,
      nodes: records.length - sheets.length,
      elements: (document.meta as { pagination: { counts: { resources: number } } }).pagination.counts
        .resources,
      dynamodb_calls: calls,
      items_read: items,
      milliseconds: Math.round(ms),
      subtree_query_milliseconds: Math.round(readMs),
    });
  }
  const first = runs[0];
  const last = runs.at(-1);
  return {
    runs: runs
      .map(
        (r) =>
          `${r.lines} lines: ${r.dynamodb_calls} calls, ${r.items_read} items, ${r.milliseconds} ms (the subtree Query alone: ${r.subtree_query_milliseconds} ms)`,
      )
      .join('; '),
    items_read_growth_smallest_to_largest:
      first && last ? Number((last.items_read / first.items_read).toFixed(1)) : 0,
    calls_at_largest: last?.dynamodb_calls ?? 0,
    nodes_per_rollup: last?.nodes ?? 0,
    elements_per_rollup: last?.elements ?? 0,
  };
};
