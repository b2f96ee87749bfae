/**
 * A scheme's derived meta: how many work orders and operations lie beneath it, and how far its
 * operations have got (statuses done / in progress / to do; of the done, why: completed, aborted or
 * cancelled; outcome buckets with `unknown` for operations not yet done). Pure.
 */
export interface OperationFacts {
  status: 'todo' | 'in_progress' | 'done';
  done_reason?: 'completed' | 'aborted' | 'cancelled' | null;
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10);

const percentages = <K extends string>(counts: Record<K, number>, whole: number) =>
  Object.fromEntries(Object.entries<number>(counts).map(([k, v]) => [k, percent(v, whole)])) as Record<
    K,
    number
  >;

export const schemeProgress = (workOrders: number, operations: readonly OperationFacts[]) => {
  const total = operations.length;
  const statuses = {
    done: operations.filter((o) => o.status === 'done').length,
    in_progress: operations.filter((o) => o.status === 'in_progress').length,
    todo: operations.filter((o) => o.status === 'todo').length,
  };
  const doneReasons = {
    aborted: operations.filter((o) => o.status === 'done' && o.done_reason === 'aborted').length,
    cancelled: operations.filter((o) => o.status === 'done' && o.done_reason === 'cancelled').length,
    completed: operations.filter((o) => o.status === 'done' && (o.done_reason ?? 'completed') === 'completed')
      .length,
  };
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
