/**
 * This container's share of each request budget (docs/request-budgets.md): leases taken from the table,
 * and the requests let through against them.
 *
 * Concurrent requests of one subject share one lease request (issue 39, finding 6). While a lease is being
 * asked for, the others wait for it rather than ask too; and what a lease grants is added to what the
 * container holds, never put in its place. Before, every request that found the lease used up asked for
 * its own and replaced the others', so 50 simultaneous requests of one client spent 475–915 of its 1,200.
 *
 * A lease is sized by what the container has shown it uses (issue 42, item 6): a quarter of the requests
 * it let through for the subject in this window (or in the last, if that was more), at least one and at
 * most a fiftieth of the budget. A lease is counted before it is used, and what a container leaves unused
 * is lost to the window: with a fixed fiftieth (24 of a client's 1,200), 60 cold containers serving one
 * request each leased 1,440, and the last 10 were refused with 1,150 of the 1,200 unused. Now a cold
 * container leases one request at a time, and one busy in the last window leases a fiftieth from its
 * first request, as before. What a container leaves unused is less than a quarter of what it let through
 * (in this window, or the last), however many containers serve the client.
 */

export type BudgetName = 'organisation' | 'client';

/** Adds `count` to the subject's window in the table: what the window held before, and after. */
export type LeaseFromTable = (
  kind: BudgetName,
  subjectId: string,
  windowStart: number,
  windowSeconds: number,
  count: number,
) => Promise<{ before: number; after: number }>;

export interface Held {
  /** The window's start, epoch seconds. */
  window: number;
  /** Requests this container may still let through in the window. */
  granted: number;
  /** The window's count across containers when this container last leased. */
  seen: number;
  /** The window was spent when last leased: refuse without asking again. */
  spent: boolean;
  /** Requests this container let through in the window. */
  used: number;
  /** Requests it let through in the window before, if that was the last one. */
  usedBefore: number;
}

export interface Subject {
  name: BudgetName;
  id: string;
  limit: number;
}

export interface Standing {
  name: BudgetName;
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  reset: number;
}

export class BudgetLeases {
  /** This container's lease of each subject (`<name>#<id>`), for its current window. */
  private readonly held = new Map<string, Held>();
  /** The one lease request in flight per subject and window. */
  private readonly asking = new Map<string, Promise<void>>();

  constructor(
    private readonly fromTable: LeaseFromTable,
    readonly windowSeconds = 60,
    /** A lease is at most the budget divided by this. */
    readonly leasesPerWindow = 50,
    /** A lease is at most what the container let through, divided by this. */
    readonly leaseOfUse = 4,
  ) {}

  /**
   * Takes one request from every subject's budget, or from none: the first subject whose window is spent
   * refuses it (`refused` is its index), and the others keep theirs. `standings` say where each stands
   * afterwards.
   */
  async take(subjects: readonly Subject[], now: number): Promise<{ refused: number; standings: Standing[] }> {
    for (;;) {
      const states = await Promise.all(subjects.map((s) => this.ready(s, now)));
      // Requests that awaited the same lease may have used it up meanwhile: ask again.
      if (states.some((s) => s.granted === 0 && !s.spent)) continue;
      const refused = states.findIndex((s) => s.granted === 0);
      if (refused === -1)
        for (const s of states) {
          s.granted -= 1;
          s.used += 1;
        }
      const standings = subjects.map((subject, i) => this.standing(subject, states[i] as Held, now));
      return { refused, standings };
    }
  }

  /** The subject's lease with a request left, or its window spent, asking the table when it must. */
  private async ready(subject: Subject, now: number): Promise<Held> {
    const key = `${subject.name}#${subject.id}`;
    for (;;) {
      const state = this.current(key, this.windowOf(now));
      if (state.granted > 0 || state.spent) return state;
      await this.ask(key, subject, state);
    }
  }

  /** The subject's lease for `window`, a fresh one when the window has moved on (a later one is kept). */
  private current(key: string, window: number): Held {
    const last = this.held.get(key);
    if (last && last.window >= window) return last;
    const usedBefore = last?.window === window - this.windowSeconds ? last.used : 0;
    const state = { window, granted: 0, seen: 0, spent: false, used: 0, usedBefore };
    this.held.set(key, state);
    return state;
  }

  /** One lease request per subject and window; concurrent callers await the one in flight. */
  private ask(key: string, subject: Subject, state: Held): Promise<void> {
    const asked = `${key}@${state.window}`;
    let pending = this.asking.get(asked);
    if (!pending) {
      pending = this.lease(key, subject, state).finally(() => this.asking.delete(asked));
      this.asking.set(asked, pending);
    }
    return pending;
  }

  /** The next lease's size: what this container has shown it uses, up to a fiftieth of the budget. */
  private sizeOf(limit: number, state: Held) {
    const byUse = Math.floor(Math.max(state.used, state.usedBefore) / this.leaseOfUse);
    return Math.max(1, Math.min(Math.floor(limit / this.leasesPerWindow), byUse));
  }

  private async lease(key: string, { name, id, limit }: Subject, state: Held) {
    const size = this.sizeOf(limit, state);
    const { before, after } = await this.fromTable(name, id, state.window, this.windowSeconds, size);
    // A lease that comes back after its window ended is lost to that window.
    if (this.held.get(key) !== state) return;
    const got = Math.max(0, Math.min(size, limit - before));
    state.granted += got;
    state.seen = Math.max(state.seen, after);
    state.spent = got < size;
  }

  private windowOf(now: number) {
    return Math.floor(now / 1000 / this.windowSeconds) * this.windowSeconds;
  }

  private standing({ name, limit }: Subject, state: Held, now: number): Standing {
    return {
      name,
      limit,
      // What is left across containers as last seen, plus this container's own leased and unused.
      remaining: Math.max(0, limit - state.seen) + state.granted,
      reset: Math.max(1, Math.ceil(state.window + this.windowSeconds - now / 1000)),
    };
  }
}

/**
 * The IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers) of a request's standings: every policy
 * that applies, and the one that refused it, or else the one closest to running out.
 */
export const rateLimitHeaders = (standings: readonly Standing[], refused: number, windowSeconds: number) => {
  const shown = standings[refused] ?? standings.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  return {
    shown,
    headers: {
      'RateLimit-Policy': standings.map((s) => `"${s.name}";q=${s.limit};w=${windowSeconds}`).join(', '),
      RateLimit: `"${shown.name}";r=${shown.remaining};t=${shown.reset}`,
    },
  };
};
