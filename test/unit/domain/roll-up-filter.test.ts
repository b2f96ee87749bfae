import { describe, expect, it } from 'vitest';
import { parseRollUpFilter } from '#functions/costs/rules/roll-up-filter';

const ORG = '01a203d3-e35c-778e-9a28-27fabd3194da';
const NODE = '01a203d3-e430-74e0-8f46-995de9be9518';
const full = (depth?: string) =>
  `and(eq(organisation,${ORG}),eq(cost_centre,${NODE}),eq(cost_centre_type,schemes)${depth === undefined ? '' : `,eq(depth,${depth})`})`;

describe('GET /v3/cost-rollups filter (spec rules 1–3 and 6)', () => {
  it('rule 1: organisation, cost_centre and cost_centre_type must be given together', () => {
    expect(parseRollUpFilter(`and(eq(organisation,${ORG}),eq(cost_centre,${NODE}))`)).toMatchObject({
      ok: false,
    });
    expect(parseRollUpFilter(`eq(cost_centre_type,schemes)`)).toMatchObject({ ok: false });
  });

  it('rule 2: none of them is an empty collection (no filter), depth being none of the three', () => {
    for (const text of [undefined, '', 'and(eq(depth,all))', 'and(eq(depth,self))', 'eq(depth,all)']) {
      expect(parseRollUpFilter(text), text).toEqual({ ok: true, filter: null });
    }
  });

  it('rule 3: cost_centre_type is one of the four node types', () => {
    expect(parseRollUpFilter(full().replace('schemes', 'projects'))).toMatchObject({ ok: false });
    for (const type of ['scheme-contracts', 'schemes', 'work-orders', 'operations']) {
      expect(parseRollUpFilter(full().replace('schemes', type))).toMatchObject({ ok: true });
    }
  });

  it('rule 4: depth omitted means self', () => {
    expect(parseRollUpFilter(full())).toEqual({
      ok: true,
      filter: { organisation: ORG, costCentre: NODE, costCentreType: 'schemes', depth: 'self' },
    });
  });

  it('rule 5: depth all', () => {
    expect(parseRollUpFilter(full('all'))).toMatchObject({ ok: true, filter: { depth: 'all' } });
  });

  it('rule 6: any other depth, matched exactly in lowercase, is rejected', () => {
    for (const depth of ['ALL', 'Self', 'children', '']) {
      expect(parseRollUpFilter(full(depth)), depth).toMatchObject({ ok: false });
      // Rule 6 holds without the other three too: a bad depth is never an empty collection.
      expect(parseRollUpFilter(`and(eq(depth,${depth}))`), depth).toMatchObject({ ok: false });
    }
  });

  it('filters after a bare top-level comma are dropped', () => {
    expect(parseRollUpFilter(`${full()},eq(depth,nonsense)`)).toMatchObject({
      ok: true,
      filter: { depth: 'self' },
    });
    // Dropping what follows the first comma can leave an incomplete set, which rule 1 rejects.
    expect(
      parseRollUpFilter(`eq(organisation,${ORG}),eq(cost_centre,${NODE}),eq(cost_centre_type,schemes)`),
    ).toMatchObject({
      ok: false,
    });
  });
});
