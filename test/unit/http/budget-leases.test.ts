/**
 * A container's leases of request budgets (shared/http/budget-leases.ts), against a table stand-in that
 * does what the budget item's UpdateItem ADD does, a turn of the event loop later, and counts the calls
 * in flight. Issue 39, finding 6: concurrent requests share one lease request, and leases add up. Issue
 * 42, item 6: a lease is sized by what its container has let through (a quarter of it, from one up to a
 * fiftieth of the budget), so a cold container leases one request at a time and a busy one a fiftieth.
 */
import { describe, expect, it } from 'vitest';
import { BudgetLeases, type LeaseFromTable, type Subject } from '#shared/http/budget-leases';

const table = (taken: Record<string, number> = {}) => {
  const counts = new Map(Object.entries(taken));
  const calls = { total: 0, inFlight: 0, mostInFlight: 0 };
  const lease: LeaseFromTable = async (kind, id, window, _seconds, count) => {
    calls.total += 1;
    calls.inFlight += 1;
    calls.mostInFlight = Math.max(calls.mostInFlight, calls.inFlight);
    await new Promise((done) => setImmediate(done));
    calls.inFlight -= 1;
    const key = `${kind}#${id}@${window}`;
    const after = (counts.get(key) ?? 0) + count;
    counts.set(key, after);
    return { before: after - count, after };
  };
  return { lease, counts, calls };
};

const NOW = Date.UTC(2026, 10, 27, 9, 0, 10);
const WINDOW = NOW / 1000 - 10;
const client: Subject = { name: 'client', id: 'c1', limit: 1200 };
const organisation: Subject = { name: 'organisation', id: 'o1', limit: 6000 };

describe('budget leases (issue 39, finding 6)', () => {
  it('50 concurrent requests of one client take exactly 50: one lease request in flight at a time, each lease added to what is left', async () => {
    const { lease, counts, calls } = table();
    const leases = new BudgetLeases(lease);
    const results = await Promise.all(Array.from({ length: 50 }, () => leases.take([client], NOW)));
    expect(results.every((r) => r.refused === -1)).toBe(true);
    expect(calls.mostInFlight).toBe(1);
    // Issue 42, item 6: a cold container's leases grow with what it let through, 1 (eight times), 2, 2,
    // 3, 3, 4, 5, 6, 8, 10: 17 leases, 51 taken (three of 24, 72, before).
    expect(calls.total).toBe(17);
    expect(counts.get(`client#c1@${WINDOW}`)).toBe(51);
    expect(Math.min(...results.map((r) => r.standings[0]?.remaining ?? Number.NaN))).toBe(1150);
    const next = await leases.take([client], NOW);
    expect(next.standings[0]?.remaining).toBe(1149);
  });

  it('a lease granting less than its size marks the window spent: its last requests go through, then refusals without asking the table', async () => {
    // 1,199 taken elsewhere; this container let 96 through in the last window, so its lease is 24 (a
    // quarter of 96, at most a fiftieth of 1,200) and gets the last one.
    const { lease, calls } = table({ [`client#c1@${WINDOW}`]: 1199 });
    const leases = new BudgetLeases(lease);
    for (let i = 0; i < 96; i++) await leases.take([client], NOW - 60_000);
    calls.total = 0;
    const results = await Promise.all(Array.from({ length: 5 }, () => leases.take([client], NOW)));
    expect(results.map((r) => r.refused)).toEqual([-1, 0, 0, 0, 0]);
    expect(calls.total).toBe(1);
    expect(results[4]?.standings[0]?.remaining).toBe(0);
  });

  it('a request refused by one budget spends none of the other', async () => {
    const { lease } = table({ [`organisation#o1@${WINDOW}`]: 6000 });
    const leases = new BudgetLeases(lease);
    const first = await leases.take([organisation, client], NOW);
    expect(first.refused).toBe(0);
    // The client's lease (one, in a cold container) is whole: 1,200 − 1 seen, plus 1 held.
    expect(first.standings[1]?.remaining).toBe(1200);
  });

  it('a new window starts afresh: what a container held in the last one is not carried over, only how much it used', async () => {
    const { lease, counts } = table();
    const leases = new BudgetLeases(lease);
    await leases.take([client], NOW);
    const later = await leases.take([client], NOW + 60_000);
    expect(later.standings[0]?.remaining).toBe(1199);
    // It let one through in the last window: a lease of one (24 before issue 42).
    expect(counts.get(`client#c1@${WINDOW + 60}`)).toBe(1);
  });
});

/** `containers` cold containers, each with its own leases, over one table. */
const containers = (count: number, lease: LeaseFromTable) =>
  Array.from({ length: count }, () => new BudgetLeases(lease));

describe('a client spread over many containers is refused only when it has spent its budget (issue 42, item 6)', () => {
  it('200 cold containers serving 5 requests each of a 1,200-a-minute client: all 1,000 served, 1,000 taken (a fiftieth each, 4,800 asked, served 250 before)', async () => {
    const { lease, counts, calls } = table();
    const all = containers(200, lease);
    const refused: number[] = [];
    for (let round = 0; round < 5; round++)
      for (const leases of all) refused.push((await leases.take([client], NOW)).refused);
    expect(refused.filter((r) => r !== -1)).toEqual([]);
    expect(counts.get(`client#c1@${WINDOW}`)).toBe(1000);
    expect(calls.total).toBe(1000);
  });

  it('300 cold containers spending the whole budget, 4 requests each: all 1,200 served, the 1,201st refused with nothing left and the seconds to the next window', async () => {
    const { lease } = table();
    const all = containers(300, lease);
    let served = 0;
    for (const leases of all)
      for (let i = 0; i < 4; i++) if ((await leases.take([client], NOW)).refused === -1) served += 1;
    expect(served).toBe(1200);
    const past = await (all[0] as BudgetLeases).take([client], NOW);
    expect(past.refused).toBe(0);
    expect(past.standings[0]).toEqual({ name: 'client', limit: 1200, remaining: 0, reset: 50 });
  });

  it('a container busy in the last window leases a fiftieth from its first request: one write per 24 requests, as before', async () => {
    const { lease, calls } = table();
    const leases = new BudgetLeases(lease);
    for (let i = 0; i < 1200; i++) await leases.take([client], NOW - 60_000);
    calls.total = 0;
    for (let i = 0; i < 1200; i++) expect((await leases.take([client], NOW)).refused).toBe(-1);
    expect(calls.total).toBe(50);
    expect((await leases.take([client], NOW)).refused).toBe(0);
  });
});
