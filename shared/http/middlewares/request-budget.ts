/**
 * A request budget per organisation and per client (issue 20, item 4): each may make so many requests a
 * minute (`REQUESTS_PER_MINUTE_ORGANISATION`, `REQUESTS_PER_MINUTE_CLIENT`). One over either is answered
 * 429 with `Retry-After`, and every budgeted answer carries the IETF `RateLimit-Policy` and `RateLimit`
 * headers (draft-ietf-httpapi-ratelimit-headers). One organisation's flood leaves every other
 * organisation's budget whole.
 *
 * Counts are kept in DynamoDB (`data/request-budgets.ts`), not in memory, so the budget holds across every
 * container of every area's function. A memory-only count would multiply it by the containers running,
 * which a flood itself raises. Each container leases a fiftieth of a budget at a time (one write per lease),
 * and a container that saw a window spent refuses locally, writing nothing.
 *
 * The error is bounded and one-sided. A lease is counted before it is used, so the requests allowed in a
 * window never exceed the budget. Leased requests a container does not use are lost to the window, so a
 * subject may be refused up to (containers × (lease − 1)) requests early.
 *
 * A request is budgeted against its path's organisation, or, for a path that names none, against the
 * principal's organisation when it has exactly one. A principal in several organisations is then budgeted
 * as a client only. Requests with no principal (the token endpoint, public documents, the street-works
 * receiver) are left to the stage's throttling and their own limits.
 */
import { config } from '../../config';
import { lease } from '../../data/request-budgets';
import { TooManyRequestsError } from '../../jsonapi/errors';
import type { ApiMiddleware } from '../api-context';

const WINDOW_SECONDS = 60;
const LEASES_PER_WINDOW = 50;

interface Held {
  window: number;
  /** Requests this container may still let through in the window. */
  granted: number;
  /** The window's count across containers when this container last leased. */
  seen: number;
  /** The window was spent when last leased: refuse without asking again. */
  spent: boolean;
}

/** This container's leases, by subject. */
const held = new Map<string, Held>();

interface Standing {
  name: 'organisation' | 'client';
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  reset: number;
}

/** A subject's lease in this container, leasing more from the table when none is left. */
const leased = async (name: Standing['name'], subjectId: string, limit: number, now: number) => {
  const window = Math.floor(now / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
  const key = `${name}#${subjectId}`;
  let state = held.get(key);
  if (state?.window !== window) state = { window, granted: 0, seen: 0, spent: false };
  if (state.granted === 0 && !state.spent) {
    const size = Math.max(1, Math.floor(limit / LEASES_PER_WINDOW));
    const { before, after } = await lease(name, subjectId, window, WINDOW_SECONDS, size);
    const got = Math.max(0, Math.min(size, limit - before));
    state = { window, granted: got, seen: after, spent: got < size };
  }
  held.set(key, state);
  return { name, limit, state };
};

/** Where a subject stands once the request is let through or refused. */
const standing = ({ name, limit, state }: Awaited<ReturnType<typeof leased>>, now: number): Standing => ({
  name,
  limit,
  // What is left across containers as last seen, plus this container's own leased and unused.
  remaining: Math.max(0, limit - state.seen) + state.granted,
  reset: Math.max(1, Math.ceil(state.window + WINDOW_SECONDS - now / 1000)),
});

export const requestBudget = (): ApiMiddleware => ({
  before: async (request) => {
    const { principal, scope } = request.context;
    if (!principal) return;
    const orgIds = [...principal.permissions.keys()];
    const orgId = request.event.pathParameters?.org_id ?? (orgIds.length === 1 ? orgIds[0] : undefined);
    const now = Date.now();
    const leases = await Promise.all([
      ...(orgId && scope.orgIds.includes(orgId)
        ? [leased('organisation', orgId, config.REQUESTS_PER_MINUTE_ORGANISATION, now)]
        : []),
      leased('client', principal.id, config.REQUESTS_PER_MINUTE_CLIENT, now),
    ]);
    // Let through only if every budget has one left, and then take one from each: a request refused by
    // one budget spends none of the others.
    const refused = leases.find((l) => l.state.granted === 0);
    if (!refused) for (const l of leases) l.state.granted -= 1;
    const standings = leases.map((l) => standing(l, now));
    const shown = refused
      ? standing(refused, now)
      : standings.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    request.context.responseHeaders = {
      ...request.context.responseHeaders,
      'RateLimit-Policy': standings.map((s) => `"${s.name}";q=${s.limit};w=${WINDOW_SECONDS}`).join(', '),
      RateLimit: `"${shown.name}";r=${shown.remaining};t=${shown.reset}`,
    };
    if (refused) throw new TooManyRequestsError(refused.name, shown.reset);
  },
});
