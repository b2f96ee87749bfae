/**
 * A container's leases of request budgets (shared/http/budget-leases.ts), against a table stand-in that
 * does what the budget item's UpdateItem ADD does, a turn of the event loop later, and counts the calls
 * in flight. Issue 39, finding 6: concurrent requests share one lease request, and leases add up.
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
    // Three leases of 24 (a fiftieth of 1,200) cover 50 requests.
    expect(calls.total).toBe(3);
    expect(counts.get(`client#c1@${WINDOW}`)).toBe(72);
    expect(Math.min(...results.map((r) => r.standings[0]?.remaining ?? Number.NaN))).toBe(1150);
    const next = await leases.take([client], NOW);
    expect(next.standings[0]?.remaining).toBe(1149);
  });

  it('a lease granting less than its size marks the window spent: its last requests go through, then refusals without asking the table', async () => {
    // 1,199 taken elsewhere: this container's lease of 24 gets the last one.
    const { lease, calls } = table({ [`client#c1@${WINDOW}`]: 1199 });
    const leases = new BudgetLeases(lease);
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
    // The client's lease of 24 is whole: 1,200 − 24 seen, plus 24 held.
    expect(first.standings[1]?.remaining).toBe(1200);
  });

  it('a new window starts afresh: what a container held in the last one is not carried over', async () => {
    const { lease, counts } = table();
    const leases = new BudgetLeases(lease);
    await leases.take([client], NOW);
    const later = await leases.take([client], NOW + 60_000);
    expect(later.standings[0]?.remaining).toBe(1199);
    expect(counts.get(`client#c1@${WINDOW + 60}`)).toBe(24);
  });
});
