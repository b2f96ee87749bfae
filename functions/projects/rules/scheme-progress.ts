/**
 * A scheme's derived meta: how many work orders and operations lie beneath it, and how far its
 * operations have got (statuses done / in progress / to do; of the done, why: completed, aborted or
 * cancelled; outcome buckets with `unknown` for operations not yet done). Pure.
 */
export interface OperationFacts {
  status?: 'todo' | 'in_progress' | 'done';
  done_reason?: 'completed' | 'aborted' | 'cancelled' | null;
}

/** The one bucket each operation is counted in. */
export const OPERATION_BUCKETS = ['todo', 'in_progress', 'completed', 'aborted', 'cancelled'] as const;
export type OperationBucket = (typeof OPERATION_BUCKETS)[number];

/** A done operation without a reason counts as completed; an operation without a status is to do. */
export const bucketOf = (operation: OperationFacts): OperationBucket =>
  operation.status === 'done' ? (operation.done_reason ?? 'completed') : (operation.status ?? 'todo');

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10);

const percentages = <K extends string>(counts: Record<K, number>, whole: number) =>
  Object.fromEntries(Object.entries<number>(counts).map(([k, v]) => [k, percent(v, whole)])) as Record<
    K,
    number
  >;

export const schemeProgress = (
  workOrders: number,
  operations: Readonly<Partial<Record<OperationBucket, number>>>,
) => {
  const n = (bucket: OperationBucket) => operations[bucket] ?? 0;
  const doneReasons = { aborted: n('aborted'), cancelled: n('cancelled'), completed: n('completed') };
  const statuses = {
    done: doneReasons.aborted + doneReasons.cancelled + doneReasons.completed,
    in_progress: n('in_progress'),
    todo: n('todo'),
  };
  const total = statuses.done + statuses.in_progress + statuses.todo;
  const outcomes = { ...doneReasons, unknown: total - statuses.done };
  return {
    counts: {
      operations: total,
      permits: 0,
      properties: 0,
      locations: 0,
      streets: 0,
      work_orders: workOrders,
    },
    completeness: {
      percentage: percentages(outcomes, total),
      counts: outcomes,
      statuses: { counts: statuses, percentages: percentages(statuses, total) },
      done_reasons: { counts: doneReasons, percentages: percentages(doneReasons, statuses.done) },
    },
  };
};
