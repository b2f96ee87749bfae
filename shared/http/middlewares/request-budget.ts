/**
 * A request budget per organisation and per client (issue 20, item 4): each may make so many requests a
 * minute (`REQUESTS_PER_MINUTE_ORGANISATION`, `REQUESTS_PER_MINUTE_CLIENT`). One over either is answered
 * 429 with `Retry-After`, and every budgeted answer carries the IETF `RateLimit-Policy` and `RateLimit`
 * headers (draft-ietf-httpapi-ratelimit-headers). One organisation's flood leaves every other
 * organisation's budget whole.
 *
 * Counts are kept in DynamoDB (`data/request-budgets.ts`), not in memory, so the budget holds across every
 * container of every area's function. A memory-only count would multiply it by the containers running,
 * which a flood itself raises. Each container leases requests in proportion to what it has let through,
 * up to a fiftieth of a budget (one write per lease, one in flight per subject: `budget-leases.ts`), and a
 * container that saw a window spent refuses locally, writing nothing.
 *
 * The error is bounded and one-sided. A lease is counted before it is used, so the requests allowed in a
 * window never exceed the budget. Leased requests a container does not use are lost to the window: less
 * than a quarter of what each container let through, so a client spread over many containers is refused
 * only near the end of its budget (cold containers, leasing one at a time, lose none).
 *
 * A request is charged as soon as its caller is known (issue 39, finding 5): before its permission is
 * checked and before its media types, query and body are, so a refused request is charged like any other
 * and its refusal carries the headers. It is charged to its client, and to its path's organisation, or,
 * for a path that names none, the principal's organisation when it has exactly one; only an organisation
 * the principal holds grants in (a path naming another is 404, charged to the client alone). A principal
 * in several organisations is then budgeted as a client only. Requests with no principal (a 401, a request
 * whose path or headers are malformed, the token endpoint, public documents, the street-works receiver)
 * are left to the stage's throttling and their own limits.
 */
import { config } from '../../config';
import { lease } from '../../data/request-budgets';
import { TooManyRequestsError } from '../../jsonapi/errors';
import type { ApiMiddleware } from '../api-context';
import { BudgetLeases, rateLimitHeaders, type Subject } from '../budget-leases';

const WINDOW_SECONDS = 60;

/** This container's leases, by subject. */
const leases = new BudgetLeases(lease, WINDOW_SECONDS);

export const requestBudget = (): ApiMiddleware => ({
  before: async (request) => {
    const { principal } = request.context;
    if (!principal) return;
    const orgIds = [...principal.permissions.keys()];
    const orgId = request.event.pathParameters?.org_id ?? (orgIds.length === 1 ? orgIds[0] : undefined);
    const subjects: Subject[] = [
      // Only an organisation the caller holds grants in: nobody spends another organisation's budget.
      ...(orgId && principal.permissions.has(orgId)
        ? [{ name: 'organisation' as const, id: orgId, limit: config.REQUESTS_PER_MINUTE_ORGANISATION }]
        : []),
      { name: 'client', id: principal.id, limit: config.REQUESTS_PER_MINUTE_CLIENT },
    ];
    // Let through only if every budget has one left, and then take one from each: a request refused by
    // one budget spends none of the others.
    const { refused, standings } = await leases.take(subjects, Date.now());
    const { shown, headers } = rateLimitHeaders(standings, refused, WINDOW_SECONDS);
    request.context.responseHeaders = { ...request.context.responseHeaders, ...headers };
    if (refused !== -1) throw new TooManyRequestsError(shown.name, shown.reset);
  },
});
