import { describe, expect, it } from 'vitest';
import { buildFilterExpression } from '#shared/data/filter-expression';

describe('DynamoDB filter expressions from collection filters', () => {
  it('no filters, no expression', () => {
    expect(buildFilterExpression([])).toBeNull();
  });

  it('equality and time windows combine with AND on placeholder names and values', () => {
    const built = buildFilterExpression([
      { field: 'status', path: 'attributes.status', op: 'eq', value: 'active' },
      { field: 'created_at', path: 'meta.created_at', op: 'since', value: '2026-01-01T00:00:00.000Z' },
      { field: 'created_at', path: 'meta.created_at', op: 'until', value: '2026-02-01T00:00:00.000Z' },
    ]);
    expect(built).toEqual({
      expression: '#n0.#n1 = :v0 AND #n2.#n3 >= :v1 AND #n2.#n3 <= :v2',
      names: { '#n0': 'attributes', '#n1': 'status', '#n2': 'meta', '#n3': 'created_at' },
      values: { ':v0': 'active', ':v1': '2026-01-01T00:00:00.000Z', ':v2': '2026-02-01T00:00:00.000Z' },
    });
  });

  it('a box that crosses the antimeridian matches either side of it', () => {
    const built = buildFilterExpression([
      {
        field: 'location',
        path: 'attributes.location',
        op: 'box',
        bottomLeft: { latitude: -20, longitude: 170 },
        topRight: { latitude: -10, longitude: -170 },
      },
    ]);
    expect(built?.expression).toBe(
      '(#n0.#n1.#n2 BETWEEN :v0 AND :v1 AND (#n0.#n1.#n3 >= :v2 OR #n0.#n1.#n3 <= :v3))',
    );
    expect(built?.values).toEqual({ ':v0': -20, ':v1': -10, ':v2': 170, ':v3': -170 });
  });
});
