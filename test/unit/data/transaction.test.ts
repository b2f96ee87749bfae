import { describe, expect, it } from 'vitest';
import { buildTransaction } from '#shared/data/transaction';

const key = { pk: 'ORG#o#progress', sk: 's1' };

describe('buildTransaction: counters and checks (DynamoDB allows one action per item)', () => {
  it('merges every tally and count on one item into one update of ADD and DELETE clauses', () => {
    const { items, owners } = buildTransaction([
      { tally: { key, add: { todo: 1, version: 1 }, join: { work_order_ids: 'w1' } } },
      { tally: { key, add: { todo: 1, done: -1 }, leave: { old_ids: 'w0' } } },
      { count: { key, by: 2 } },
    ]);
    expect(items).toHaveLength(1);
    expect(owners).toEqual([0]);
    const update = items[0]?.Update;
    expect(update?.Key).toEqual(key);
    const names = update?.ExpressionAttributeNames ?? {};
    const values = update?.ExpressionAttributeValues ?? {};
    const byName = Object.fromEntries(
      Object.entries(names).map(([alias, name]) => [name, values[`:${alias.slice(1)}`]]),
    );
    expect(byName).toEqual({
      todo: 2,
      version: 1,
      done: -1,
      count: 2,
      work_order_ids: new Set(['w1']),
      old_ids: new Set(['w0']),
    });
    expect(update?.UpdateExpression).toMatch(/^ADD (#a\d :a\d, ){4}#a\d :a\d DELETE #a\d :a\d$/);
  });

  it('moves that cancel out write nothing', () => {
    const { items } = buildTransaction([
      { tally: { key, add: { todo: 1 } } },
      { tally: { key, add: { todo: -1 } } },
    ]);
    expect(items).toEqual([]);
  });

  it('the same existence check asked twice is one ConditionCheck; a version check is its own', () => {
    const parent = { pk: 'ORG#o#work-orders', sk: 'w1' };
    const { items } = buildTransaction([
      { check: parent },
      { check: parent },
      { check: { ...key, version: 3 } },
    ]);
    expect(items.map((i) => i.ConditionCheck?.ConditionExpression)).toEqual([
      'attribute_exists(pk)',
      '#version = :version',
    ]);
    expect(items[1]?.ConditionCheck?.ExpressionAttributeValues).toEqual({ ':version': 3 });
  });
});
