/**
 * What a node of the work hierarchy keeps of the cost lines on its sheets, so a roll-up reads nodes, not
 * lines: for each bucket (actual lines by their sheet's status, estimate lines apart), the charge and the
 * cost of each category, as top-level numbers `costs#<bucket>#<measure>` of the node's record; the
 * currencies its lines are in (`costs#currencies`, a set); how many sheets it has (`costs#sheets`). A
 * sheet keeps its own actual lines' sums the same way (`costs#actual#<measure>`), which a change of its
 * status moves from one bucket of its node to another. Each is written by `keep` ops in the transaction
 * that writes the line or the sheet (never served).
 */
import type { ItemKey, StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { declaredType } from '#shared/engine/resource-definition';
import { costCentreRelationships } from './rules/cost-centres';
import { BUCKETS, type Bucket, CATEGORIES, type NodeSums, type Sums, zero } from './rules/roll-up';

const MEASURES = ['charge', ...CATEGORIES] as const;
type Measure = (typeof MEASURES)[number];

const kept = (bucket: Bucket | 'actual', measure: Measure) => `costs#${bucket}#${measure}`;
const CURRENCIES = 'costs#currencies';
const SHEETS = 'costs#sheets';

const measureOf = (sums: Sums, measure: Measure) =>
  measure === 'charge' ? sums.charge : sums.categories[measure];

/** The numbers `sums` adds (or, with sign −1, takes) to a bucket. */
const adds = (bucket: Bucket | 'actual', sums: Sums, sign = 1) =>
  Object.fromEntries(MEASURES.map((m) => [kept(bucket, m), sign * measureOf(sums, m)]));

/** One bucket as a record keeps it. */
const keptBucket = (record: StoredResource, bucket: Bucket | 'actual'): Sums => {
  const number = (m: Measure) => {
    const value = (record as unknown as Record<string, unknown>)[kept(bucket, m)];
    return typeof value === 'number' ? value : 0;
  };
  const categories = Object.fromEntries(CATEGORIES.map((c) => [c, number(c)])) as Sums['categories'];
  return {
    ...zero(),
    charge: number('charge'),
    categories,
    cost: CATEGORIES.reduce((s, c) => s + categories[c], 0),
  };
};

/** A node's own sums, as it keeps them. */
export const keptSums = (node: StoredResource): NodeSums => {
  const currencies = (node as unknown as Record<string, unknown>)[CURRENCIES];
  return {
    buckets: Object.fromEntries(BUCKETS.map((b) => [b, keptBucket(node, b)])) as NodeSums['buckets'],
    currencies: currencies instanceof Set ? [...currencies].map(String) : [],
  };
};

/** Whether a node has a cost sheet of its own. */
export const hasSheet = (node: StoredResource) =>
  Number((node as unknown as Record<string, unknown>)[SHEETS] ?? 0) > 0;

/** The node a sheet costs (one of its four node relationships is set): its type and id. */
export const nodeOf = (sheet: StoredResource): { type: string; id: string } => {
  const [relationship, target] =
    Object.entries(costCentreRelationships).find(([name]) => sheet.rels[name]) ?? [];
  if (!relationship || !target) throw new Error(`cost sheet ${sheet.id} names no node`);
  return { type: target.type, id: String(sheet.rels[relationship]) };
};

/** The key of the node a sheet costs. */
export const nodeKeyOf = (sheet: StoredResource): ItemKey => {
  const { type, id } = nodeOf(sheet);
  const definition = declaredType(type);
  if (!definition) throw new Error(`cost sheet ${sheet.id} names no node`);
  return definition.keyOf(sheet.org_id, id);
};

/** The attributes a node with these sums keeps (for records written in bulk, as the bench seeds them). */
export const keptAttributes = (sums: NodeSums) => ({
  ...Object.assign({}, ...BUCKETS.map((b) => adds(b, sums.buckets[b]))),
  ...(sums.currencies.length > 0 && { [CURRENCIES]: new Set(sums.currencies) }),
});

/** A new sheet, counted on its node. */
export const sheetAdded = (nodeKey: ItemKey): WriteOp => ({ keep: { key: nodeKey, add: { [SHEETS]: 1 } } });

/**
 * A new line's amounts, added to its node's bucket (the node's currencies joined) and, for an actual
 * line, to its sheet's own sums, provided the sheet's status is still the one its bucket was chosen by.
 * The node is in its tree unless named (a migration folds old lines into a deleted node where it waits).
 */
export const lineAdded = (
  sheet: StoredResource,
  line: { bucket: Bucket; sums: Sums; currency: string },
  nodeKey = nodeKeyOf(sheet),
): WriteOp[] => [
  {
    keep: {
      key: nodeKey,
      add: adds(line.bucket, line.sums),
      join: { [CURRENCIES]: line.currency },
    },
  },
  line.bucket === 'estimate'
    ? { check: { pk: sheet.pk, sk: sheet.sk } }
    : {
        keep: {
          key: { pk: sheet.pk, sk: sheet.sk },
          add: adds('actual', line.sums),
          where: { status: line.bucket },
        },
      },
];

/** A sheet's status changed: its actual lines' sums move from the old bucket of its node to the new. */
export const sheetStatusMoved = (sheet: StoredResource, from: Bucket, to: Bucket): WriteOp[] => {
  if (from === to) return [];
  const sums = keptBucket(sheet, 'actual');
  const numbers: Record<string, number> = { ...adds(from, sums, -1) };
  for (const [name, by] of Object.entries(adds(to, sums))) numbers[name] = (numbers[name] ?? 0) + by;
  return [{ keep: { key: nodeKeyOf(sheet), add: numbers } }];
};
