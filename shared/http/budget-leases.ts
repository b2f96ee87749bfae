/**
 * This container's share of each request budget (docs/request-budgets.md): leases taken from the table a
 * fiftieth of a budget at a time, and the requests let through against them.
 *
 * Concurrent requests of one subject share one lease request (issue 39, finding 6). While a lease is being
 * asked for, the others wait for it rather than ask too; and what a lease grants is added to what the
 * container holds, never put in its place. Before, every request that found the lease used up asked for
 * its own and replaced the others', so 50 simultaneous requests of one client spent 475–915 of its 1,200.
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
    readonly leasesPerWindow = 50,
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
      if (refused === -1) for (const s of states) s.granted -= 1;
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
      await this.ask(key, subject, state.window);
    }
  }

  /** The subject's lease for `window`, a fresh one when the window has moved on (a later one is kept). */
  private current(key: string, window: number): Held {
    let state = this.held.get(key);
    if (!state || state.window < window) {
      state = { window, granted: 0, seen: 0, spent: false };
      this.held.set(key, state);
    }
    return state;
  }

  /** One lease request per subject and window; concurrent callers await the one in flight. */
  private ask(key: string, subject: Subject, window: number): Promise<void> {
    const asked = `${key}@${window}`;
    let pending = this.asking.get(asked);
    if (!pending) {
      pending = this.lease(key, subject, window).finally(() => this.asking.delete(asked));
      this.asking.set(asked, pending);
    }
    return pending;
  }

  private async lease(key: string, { name, id, limit }: Subject, window: number) {
    const size = Math.max(1, Math.floor(limit / this.leasesPerWindow));
    const { before, after } = await this.fromTable(name, id, window, this.windowSeconds, size);
    const state = this.held.get(key);
    // A lease that comes back after its window ended is lost to that window.
    if (state?.window !== window) return;
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
