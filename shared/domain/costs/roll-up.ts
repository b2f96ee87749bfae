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

interface Sums {
  cost: number;
  charge: number;
  categories: Record<Category, number>;
}

const zero = (): Sums => ({
  cost: 0,
  charge: 0,
  categories: { material: 0, labour: 0, misc: 0, contractor: 0 },
});

const add = (into: Sums, from: Sums) => {
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

/**
 * Roll-ups for every node under (and including) `rootId`. Nodes outside the root's subtree, and lines
 * on them, are ignored; `defaultCurrency` labels totals of a subtree with no lines at all.
 */
export const rollUp = (
  nodes: readonly CostNode[],
  lines: readonly CostLine[],
  rootId: string,
  defaultCurrency = 'GBP',
): Map<string, RollUp> => {
  const children = new Map<string, string[]>();
  for (const n of nodes)
    if (n.parentId) children.set(n.parentId, [...(children.get(n.parentId) ?? []), n.id]);
  const inTree = new Set<string>();
  const order: string[] = [];
  const visit = (id: string) => {
    inTree.add(id);
    order.push(id);
    for (const child of children.get(id) ?? []) visit(child);
  };
  if (nodes.some((n) => n.id === rootId)) visit(rootId);

  const relevant = lines.filter((l) => inTree.has(l.nodeId));
  const currencies = [...new Set(relevant.map((l) => l.currency))];
  if (currencies.length > 1) throw new MixedCurrencies(currencies);
  const currency = currencies[0] ?? defaultCurrency;

  type Acc = {
    direct: Sums;
    rolled: Sums;
    byStatus: Record<SheetStatus, Sums>;
    estDirect: Sums;
    estRolled: Sums;
  };
  const acc = new Map<string, Acc>(
    order.map((id) => [
      id,
      {
        direct: zero(),
        rolled: zero(),
        byStatus: { quoted: zero(), approved: zero(), completed: zero() },
        estDirect: zero(),
        estRolled: zero(),
      },
    ]),
  );
  for (const line of relevant) {
    const a = acc.get(line.nodeId);
    if (!a) continue;
    const s: Sums = { ...zero(), cost: line.cost, charge: line.charge };
    s.categories[line.category] = line.cost;
    if (line.kind === 'estimate') add(a.estDirect, s);
    else {
      add(a.direct, s);
      add(a.byStatus[line.sheetStatus], s);
    }
  }
  // Children before parents: walk the visit order backwards.
  const byStatusRolled = new Map<string, Record<SheetStatus, Sums>>();
  for (const id of [...order].reverse()) {
    const a = acc.get(id);
    if (!a) continue;
    add(a.rolled, a.direct);
    add(a.estRolled, a.estDirect);
    const status = { quoted: zero(), approved: zero(), completed: zero() };
    for (const st of SHEET_STATUSES) add(status[st], a.byStatus[st]);
    for (const child of children.get(id) ?? []) {
      const c = acc.get(child);
      const cs = byStatusRolled.get(child);
      if (!c || !cs) continue;
      add(a.rolled, c.rolled);
      add(a.estRolled, c.estRolled);
      for (const st of SHEET_STATUSES) add(status[st], cs[st]);
    }
    byStatusRolled.set(id, status);
  }
  return new Map(
    order.map((id) => {
      const a = acc.get(id) as Acc;
      const status = byStatusRolled.get(id) as Record<SheetStatus, Sums>;
      return [
        id,
        {
          direct: totals(a.direct, currency),
          rolled: totals(a.rolled, currency),
          by_status: {
            quoted: totals(status.quoted, currency),
            approved: totals(status.approved, currency),
            completed: totals(status.completed, currency),
          },
          estimated: { direct: totals(a.estDirect, currency), rolled: totals(a.estRolled, currency) },
        },
      ];
    }),
  );
};
