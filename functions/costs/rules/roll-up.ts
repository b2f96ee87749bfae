/**
 * Cost roll-up maths (spec, Cost roll-up resource; rules 7, 9 and 10): for every node of a subtree, the
 * totals of its own lines (`direct`), of itself and everything beneath it (`rolled`), `rolled` split by
 * the status of the sheet each line sits on (`by_status`), and the same from estimate lines kept apart
 * (`estimated`). Totals are sums of the snapshots stored on the lines. Amounts are integer minor units
 * (pence), so sums are exact. A subtree mixing currencies has no honest total: it is refused. Pure.
 */
export const CATEGORIES = ['material', 'labour', 'misc', 'contractor'] as const;
export const SHEET_STATUSES = ['quoted', 'approved', 'completed'] as const;

export type Category = (typeof CATEGORIES)[number];
export type SheetStatus = (typeof SHEET_STATUSES)[number];

export interface CostNode {
  id: string;
  parentId: string | null;
}

/** A cost line's snapshot: what it cost and what it is charged at, when it was written. */
export interface CostLine {
  nodeId: string;
  kind: 'actual' | 'estimate';
  sheetStatus: SheetStatus;
  category: Category;
  /** Minor units. */
  cost: number;
  charge: number;
  currency: string;
}

export interface Money {
  amount: number;
  currency: string;
}

export interface Totals {
  cost: Money;
  charge: Money;
  profit: Money;
  categories: Record<Category, Money>;
}

export interface RollUp {
  direct: Totals;
  rolled: Totals;
  by_status: Record<SheetStatus, Totals>;
  estimated: { direct: Totals; rolled: Totals };
}

/** Sums of minor units: cost, charge, and cost by category. */
export interface Sums {
  cost: number;
  charge: number;
  categories: Record<Category, number>;
}

export const zero = (): Sums => ({
  cost: 0,
  charge: 0,
  categories: { material: 0, labour: 0, misc: 0, contractor: 0 },
});

/**
 * Where a line's amounts count on its node: actual lines by the status of their sheet, estimate lines
 * apart whatever the status.
 */
export const BUCKETS = [...SHEET_STATUSES, 'estimate'] as const;
export type Bucket = (typeof BUCKETS)[number];

export const bucketOf = (line: Pick<CostLine, 'kind' | 'sheetStatus'>): Bucket =>
  line.kind === 'estimate' ? 'estimate' : line.sheetStatus;

/** What one line adds to its bucket. */
export const lineSums = (line: Pick<CostLine, 'category' | 'cost' | 'charge'>): Sums => {
  const s = { ...zero(), cost: line.cost, charge: line.charge };
  s.categories[line.category] = line.cost;
  return s;
};

/** A node's own lines, summed by bucket, and the currencies they are in. */
export interface NodeSums {
  buckets: Record<Bucket, Sums>;
  currencies: readonly string[];
}

export const noSums = (): NodeSums => ({
  buckets: { quoted: zero(), approved: zero(), completed: zero(), estimate: zero() },
  currencies: [],
});

export const add = (into: Sums, from: Sums) => {
  into.cost += from.cost;
  into.charge += from.charge;
  for (const c of CATEGORIES) into.categories[c] += from.categories[c];
};

/** A sum beyond 2^53 − 1 minor units would no longer be exact: such a total is refused, not rounded. */
export class InexactTotal extends Error {
  constructor() {
    super(`The subtree's totals exceed ${Number.MAX_SAFE_INTEGER} minor units, beyond exact arithmetic.`);
  }
}

const exact = (s: Sums) => {
  const amounts = [s.cost, s.charge, s.charge - s.cost, ...CATEGORIES.map((c) => s.categories[c])];
  if (!amounts.every(Number.isSafeInteger)) throw new InexactTotal();
};

const totals = (s: Sums, currency: string): Totals => {
  exact(s);
  return {
    cost: { amount: s.cost, currency },
    charge: { amount: s.charge, currency },
    profit: { amount: s.charge - s.cost, currency },
    categories: Object.fromEntries(
      CATEGORIES.map((c) => [c, { amount: s.categories[c], currency }]),
    ) as Record<Category, Money>,
  };
};

export class MixedCurrencies extends Error {
  constructor(readonly currencies: string[]) {
    super(`The subtree holds lines in ${currencies.join(' and ')}; roll-ups never add different currencies.`);
  }
}

/** Each node's own lines summed by bucket: what a node keeps as its lines are written. */
export const sumsByNode = (lines: readonly CostLine[]): Map<string, NodeSums> => {
  const sums = new Map<string, NodeSums>();
  for (const line of lines) {
    const node = sums.get(line.nodeId) ?? noSums();
    add(node.buckets[bucketOf(line)], lineSums(line));
    sums.set(line.nodeId, {
      ...node,
      currencies: [...new Set([...node.currencies, line.currency])],
    });
  }
  return sums;
};

/**
 * Roll-ups for every node under (and including) `rootId`, from its lines. Nodes outside the root's
 * subtree, and lines on them, are ignored; `defaultCurrency` labels totals of a subtree with no lines.
 */
export const rollUp = (
  nodes: readonly CostNode[],
  lines: readonly CostLine[],
  rootId: string,
  defaultCurrency = 'GBP',
): Map<string, RollUp> => rollUpSums(nodes, sumsByNode(lines), rootId, defaultCurrency);

/** The same from each node's own sums (`sumsByNode`, or as the node keeps them): reads no line. */
export const rollUpSums = (
  nodes: readonly CostNode[],
  sums: ReadonlyMap<string, NodeSums>,
  rootId: string,
  defaultCurrency = 'GBP',
): Map<string, RollUp> => {
  const children = new Map<string, string[]>();
  for (const n of nodes)
    if (n.parentId) children.set(n.parentId, [...(children.get(n.parentId) ?? []), n.id]);
  const order: string[] = [];
  const visit = (id: string) => {
    order.push(id);
    for (const child of children.get(id) ?? []) visit(child);
  };
  if (nodes.some((n) => n.id === rootId)) visit(rootId);

  const own = new Map(order.map((id) => [id, sums.get(id) ?? noSums()]));
  const currencies = [...new Set([...own.values()].flatMap((s) => s.currencies))];
  if (currencies.length > 1) throw new MixedCurrencies(currencies);
  const currency = currencies[0] ?? defaultCurrency;

  type Acc = { direct: Sums; rolled: Sums; byStatus: Record<SheetStatus, Sums>; estRolled: Sums };
  const acc = new Map<string, Acc>();
  // Children before parents: walk the visit order backwards.
  for (const id of [...order].reverse()) {
    const { buckets } = own.get(id) ?? noSums();
    const direct = zero();
    for (const st of SHEET_STATUSES) add(direct, buckets[st]);
    const a: Acc = {
      direct,
      rolled: zero(),
      byStatus: { quoted: zero(), approved: zero(), completed: zero() },
      estRolled: zero(),
    };
    add(a.rolled, direct);
    add(a.estRolled, buckets.estimate);
    for (const st of SHEET_STATUSES) add(a.byStatus[st], buckets[st]);
    for (const child of children.get(id) ?? []) {
      const c = acc.get(child);
      if (!c) continue;
      add(a.rolled, c.rolled);
      add(a.estRolled, c.estRolled);
      for (const st of SHEET_STATUSES) add(a.byStatus[st], c.byStatus[st]);
    }
    acc.set(id, a);
  }
  return new Map(
    order.map((id) => {
      const a = acc.get(id) as Acc;
      return [
        id,
        {
          direct: totals(a.direct, currency),
          rolled: totals(a.rolled, currency),
          by_status: {
            quoted: totals(a.byStatus.quoted, currency),
            approved: totals(a.byStatus.approved, currency),
            completed: totals(a.byStatus.completed, currency),
          },
          estimated: {
            direct: totals(own.get(id)?.buckets.estimate ?? zero(), currency),
            rolled: totals(a.estRolled, currency),
          },
        },
      ];
    }),
  );
};
