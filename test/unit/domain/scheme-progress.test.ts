import { describe, expect, it } from 'vitest';
import { bucketOf, schemeProgress } from '#functions/projects/rules/scheme-progress';

describe('scheme meta.counts and meta.completeness', () => {
  it('counts statuses, done reasons and outcome buckets, with percentages of the right whole', () => {
    const progress = schemeProgress(2, { completed: 1, aborted: 1, in_progress: 1, todo: 1 });
    expect(progress.counts).toMatchObject({ operations: 4, work_orders: 2 });
    expect(progress.completeness.statuses).toEqual({
      counts: { done: 2, in_progress: 1, todo: 1 },
      percentages: { done: 50, in_progress: 25, todo: 25 },
    });
    expect(progress.completeness.done_reasons).toEqual({
      counts: { aborted: 1, cancelled: 0, completed: 1 },
      percentages: { aborted: 50, cancelled: 0, completed: 50 },
    });
    expect(progress.completeness.counts).toEqual({ aborted: 1, cancelled: 0, completed: 1, unknown: 2 });
    expect(progress.completeness.percentage).toEqual({
      aborted: 25,
      cancelled: 0,
      completed: 25,
      unknown: 50,
    });
  });

  it('an empty scheme is all zeros, not a division by zero', () => {
    expect(schemeProgress(0, {}).completeness.percentage).toEqual({
      aborted: 0,
      cancelled: 0,
      completed: 0,
      unknown: 0,
    });
  });

  it('each operation counts in one bucket: a done one by its reason (completed if none given)', () => {
    expect(bucketOf({ status: 'done', done_reason: 'aborted' })).toBe('aborted');
    expect(bucketOf({ status: 'done', done_reason: null })).toBe('completed');
    expect(bucketOf({ status: 'in_progress', done_reason: 'cancelled' })).toBe('in_progress');
    expect(bucketOf({})).toBe('todo');
  });
});
