/**
 * Request budgets across containers (issue 42, item 6): a 1,200-a-minute client (in a 6,000-a-minute
 * organisation) spread over many cold containers, each charging its requests as the middleware does, and
 * leasing from the budget items in DynamoDB Local. Containers are simulated in this process, each its own
 * `BudgetLeases` (what a Lambda container keeps in memory): 200 Node processes on 2 shared cores would
 * measure start-up, not leases. Counts the table writes (one UpdateItem per lease) per request served.
 */
import { lease } from '#shared/data/request-budgets';
import { BudgetLeases, type LeaseFromTable, type Subject } from '#shared/http/budget-leases';

const WINDOW_MS = 60_000;

/** Leases from the table, counted. */
const counted = () => {
  const count = { writes: 0 };
  const leaseCounted: LeaseFromTable = (...args) => {
    count.writes += 1;
    return lease(...args);
  };
  return { count, leaseCounted };
};

const subjectsOf = (run: string): Subject[] => [
  { name: 'organisation', id: `bench-org-${run}`, limit: 6000 },
  { name: 'client', id: `bench-client-${run}`, limit: 1200 },
];

/** `containers` cold containers at once, each serving `each` requests one after another, in one window. */
const spread = async (containers: number, each: number, now: number) => {
  const { count, leaseCounted } = counted();
  const subjects = subjectsOf(`${containers}x${each}-${now}`);
  let served = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: containers }, async () => {
      const leases = new BudgetLeases(leaseCounted);
      for (let i = 0; i < each; i++) {
        if ((await leases.take(subjects, now)).refused === -1) served += 1;
        else refused += 1;
      }
    }),
  );
  const requests = containers * each;
  return `${served} served, ${refused} refused; ${count.writes} table writes (${(count.writes / requests).toFixed(3)} a request, organisation and client)`;
};

/** One container serving `perWindow` requests a minute for `windows` minutes: its table writes each minute. */
const steady = async (perWindow: number, windows: number, now: number) => {
  const { count, leaseCounted } = counted();
  const subjects = subjectsOf(`steady-${perWindow}-${now}`);
  const leases = new BudgetLeases(leaseCounted);
  let served = 0;
  const writes: number[] = [];
  for (let w = 0; w < windows; w++) {
    const before = count.writes;
    for (let i = 0; i < perWindow; i++)
      if ((await leases.take(subjects, now + w * WINDOW_MS)).refused === -1) served += 1;
    writes.push(count.writes - before);
  }
  const last = writes.at(-1) ?? 0;
  return `${served} of ${perWindow * windows} served; table writes by minute ${writes.join(', ')}: ${(last / perWindow).toFixed(3)} a request once warm`;
};

export const benchBudgets = async () => {
  // Ten seconds into a minute, so every request of a spread falls in one window.
  const now = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + 10_000;
  return {
    cold_200_containers_x_5: await spread(200, 5, now),
    cold_60_containers_x_1: await spread(60, 1, now),
    cold_240_containers_x_5_the_whole_budget: await spread(240, 5, now),
    cold_20_containers_x_60_the_whole_budget: await spread(20, 60, now),
    warm_container_1200_a_minute: await steady(1200, 3, now),
    warm_container_100_a_minute: await steady(100, 3, now),
  };
};
