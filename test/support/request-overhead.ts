/**
 * A request budget's lease (`shared/http/middlewares/request-budget.ts`): one UpdateItem per fiftieth of
 * a budget, taken by whichever request finds its container's lease used up. It is admission overhead,
 * not the route's own work, so the helpers that count a route's calls leave it out; the bench reports
 * leases apart.
 */
export const isBudgetLease = (input: unknown): boolean =>
  String((input as { Key?: { pk?: unknown } } | undefined)?.Key?.pk ?? '').startsWith('BUDGET#');
