/**
 * Issue 42, item 6: a client spread over many containers is refused only when it has spent its budget.
 * Containers are simulated in this process: each is its own `BudgetLeases` (what a Lambda container keeps
 * in memory), all leasing from the real budget items in DynamoDB Local, charged as the middleware charges
 * a request (its organisation and its client, at the production budgets: 6,000 and 1,200 a minute).
 * Before, each container leased a fiftieth (24) at its first request, so 60 containers serving one
 * request each got 50 answers and 10 refusals.
 */
import { describe, expect, it } from 'vitest';
import { lease } from '#shared/data/request-budgets';
import { BudgetLeases, rateLimitHeaders, type Subject } from '#shared/http/budget-leases';

/** Ten seconds into a minute: the window has 50 s left. */
const NOW = Math.floor(Date.now() / 60_000) * 60_000 + 10_000;

const subjectsOf = (run: string): Subject[] => [
  { name: 'organisation', id: `org-${run}`, limit: 6000 },
  { name: 'client', id: `client-${run}`, limit: 1200 },
];

/** `count` cold containers; each serves `each` requests of the subjects; the statuses the middleware would answer. */
const serve = async (count: number, each: number, subjects: Subject[]) => {
  const containers = Array.from({ length: count }, () => new BudgetLeases(lease));
  const statuses: number[] = [];
  // Each container serves its requests one at a time, as a Lambda container does; the containers at once.
  await Promise.all(
    containers.map(async (leases) => {
      for (let i = 0; i < each; i++)
        statuses.push((await leases.take(subjects, NOW)).refused === -1 ? 200 : 429);
    }),
  );
  return { statuses, containers };
};

describe('a client spread over many containers (issue 42, item 6)', () => {
  it('60 cold containers serving one request each: all 60 served (50 and 10 refusals before)', async () => {
    const { statuses } = await serve(60, 1, subjectsOf(`sixty-${NOW}`));
    expect(statuses).toEqual(Array(60).fill(200));
  });

  it('240 cold containers spending a 1,200-a-minute budget, 5 requests each: all 1,200 served, the 1,201st is 429 with the client’s RateLimit at 0', async () => {
    const subjects = subjectsOf(`spent-${NOW}`);
    const { statuses, containers } = await serve(240, 5, subjects);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(statuses).toHaveLength(1200);
    const { refused, standings } = await (containers[7] as BudgetLeases).take(subjects, NOW);
    expect(refused).toBe(1);
    expect(rateLimitHeaders(standings, refused, 60).headers).toEqual({
      'RateLimit-Policy': '"organisation";q=6000;w=60, "client";q=1200;w=60',
      RateLimit: '"client";r=0;t=50',
    });
    // The organisation was not charged for the refusal: 1,200 of its 6,000 gone, as this container saw it.
    expect(standings[0]?.remaining).toBeGreaterThanOrEqual(6000 - 1200);
  });
});
