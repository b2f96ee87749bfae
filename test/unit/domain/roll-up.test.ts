import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  type CostLine,
  type CostNode,
  InexactTotal,
  MixedCurrencies,
  rollUp,
  SHEET_STATUSES,
  type Totals,
} from '#functions/costs/rules/roll-up';

/** Random trees: node i's parent is a random earlier node, so every tree is rooted at node 0. */
const trees = fc.integer({ min: 1, max: 40 }).chain((size) =>
  fc
    .tuple(
      fc.array(fc.nat(), { minLength: size - 1, maxLength: size - 1 }),
      fc.array(
        fc.record({
          node: fc.nat({ max: size - 1 }),
          kind: fc.constantFrom('actual' as const, 'estimate' as const),
          sheetStatus: fc.constantFrom(...SHEET_STATUSES),
          category: fc.constantFrom(...CATEGORIES),
          cost: fc.integer({ min: 0, max: 1_000_000 }),
          charge: fc.integer({ min: 0, max: 1_500_000 }),
        }),
        { maxLength: 120 },
      ),
    )
    .map(([parents, raw]) => {
      const nodes: CostNode[] = [
        { id: 'n0', parentId: null },
        ...parents.map((p, i) => ({ id: `n${i + 1}`, parentId: `n${p % (i + 1)}` })),
      ];
      const lines: CostLine[] = raw.map((l) => ({ ...l, nodeId: `n${l.node}`, currency: 'GBP' }));
      return { nodes, lines };
    }),
);

const sum = (blocks: Totals[]) => ({
  cost: blocks.reduce((s, b) => s + b.cost.amount, 0),
  charge: blocks.reduce((s, b) => s + b.charge.amount, 0),
});

describe('cost roll-up maths (property-based)', () => {
  it('rolled = direct + the children’s rolled; by_status splits rolled exactly; profit = charge − cost', () => {
    fc.assert(
      fc.property(trees, ({ nodes, lines }) => {
        const result = rollUp(nodes, lines, 'n0');
        for (const node of nodes) {
          const r = result.get(node.id);
          if (!r) return false;
          const children = nodes
            .filter((n) => n.parentId === node.id)
            .map((n) => result.get(n.id)?.rolled as Totals);
          const expected = sum([r.direct, ...children]);
          expect({ cost: r.rolled.cost.amount, charge: r.rolled.charge.amount }).toEqual(expected);
          expect(sum(SHEET_STATUSES.map((s) => r.by_status[s]))).toEqual({
            cost: r.rolled.cost.amount,
            charge: r.rolled.charge.amount,
          });
          for (const t of [
            r.direct,
            r.rolled,
            r.estimated.direct,
            r.estimated.rolled,
            ...SHEET_STATUSES.map((s) => r.by_status[s]),
          ]) {
            expect(t.profit.amount).toBe(t.charge.amount - t.cost.amount);
            expect(CATEGORIES.reduce((s, c) => s + t.categories[c].amount, 0)).toBe(t.cost.amount);
          }
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });

  it('rule 10: a node with no lines of its own still totals what lies beneath it', () => {
    const nodes = [
      { id: 'contract', parentId: null },
      { id: 'scheme', parentId: 'contract' },
      { id: 'wo', parentId: 'scheme' },
    ];
    const lines: CostLine[] = [
      {
        nodeId: 'wo',
        kind: 'actual',
        sheetStatus: 'approved',
        category: 'labour',
        cost: 10_000,
        charge: 15_000,
        currency: 'GBP',
      },
    ];
    const contract = rollUp(nodes, lines, 'contract').get('contract');
    expect(contract?.direct.cost.amount).toBe(0);
    expect(contract?.rolled).toMatchObject({
      cost: { amount: 10_000, currency: 'GBP' },
      profit: { amount: 5_000 },
    });
    expect(contract?.by_status.approved.charge.amount).toBe(15_000);
  });

  it('estimate lines are kept apart from actual lines', () => {
    const lines: CostLine[] = [
      {
        nodeId: 'a',
        kind: 'estimate',
        sheetStatus: 'quoted',
        category: 'material',
        cost: 700,
        charge: 900,
        currency: 'GBP',
      },
    ];
    const r = rollUp([{ id: 'a', parentId: null }], lines, 'a').get('a');
    expect(r?.rolled.cost.amount).toBe(0);
    expect(r?.estimated.rolled.cost.amount).toBe(700);
  });

  it('a subtree mixing currencies is refused rather than added up', () => {
    const lines: CostLine[] = [
      {
        nodeId: 'a',
        kind: 'actual',
        sheetStatus: 'quoted',
        category: 'material',
        cost: 1,
        charge: 1,
        currency: 'GBP',
      },
      {
        nodeId: 'b',
        kind: 'actual',
        sheetStatus: 'quoted',
        category: 'material',
        cost: 1,
        charge: 1,
        currency: 'EUR',
      },
    ];
    const nodes = [
      { id: 'a', parentId: null },
      { id: 'b', parentId: 'a' },
    ];
    expect(() => rollUp(nodes, lines, 'a')).toThrow(MixedCurrencies);
    expect(rollUp(nodes, lines, 'b').get('b')?.rolled.cost.currency).toBe('EUR');
  });

  it('totals beyond 2^53 − 1 minor units are refused rather than rounded', () => {
    const line = (nodeId: string, cost: number): CostLine => ({
      nodeId,
      kind: 'actual',
      sheetStatus: 'quoted',
      category: 'material',
      cost,
      charge: cost,
      currency: 'GBP',
    });
    const nodes = [
      { id: 'a', parentId: null },
      { id: 'b', parentId: 'a' },
    ];
    const half = 2 ** 52;
    expect(rollUp(nodes, [line('a', half - 1), line('b', half)], 'a').get('a')?.rolled.cost.amount).toBe(
      Number.MAX_SAFE_INTEGER,
    );
    expect(() => rollUp(nodes, [line('a', half), line('b', half)], 'a')).toThrow(InexactTotal);
  });
});
