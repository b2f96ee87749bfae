/**
 * The organisations a request may read, decided once by the auth middleware from the caller's grants
 * and the route's permission. Every data-layer read takes one: keys are only ever built inside it, and
 * records outside it are "not found", so no handler can forget the check. It also names who acts, so
 * every event a write commits says who made it.
 */
export interface Scope {
  readonly orgIds: readonly string[];
  /**
   * Records read in the same round trip as the caller's credentials (a single-record GET names its
   * record before anyone is authorised), by `keyId`, null where absent. The data layer hands each out
   * once, to the first read of its key, and only as it would a fresh read: inside the scope or not at all.
   */
  readonly readAhead?: Map<string, unknown>;
  readonly actor: Actor;
  /**
   * The request's `If-Match`, for the record its route names last (`http/preconditions.ts`): the engine
   * checks it where it reads that record, and the write's own transaction holds the version read.
   */
  readonly precondition?: Precondition;
}

/** The entity tags a request accepts for one record (`*`: any current version). */
export interface Precondition {
  readonly id: string;
  readonly ifMatch: '*' | readonly string[];
}

/** Who makes a change: a signed-in user, a service account, or the service itself (named by `id`). */
export interface Actor {
  readonly kind: 'user' | 'service-account' | 'system';
  readonly id: string;
}

/** The service acting on its own (seed data, a message from Street Manager, a job). */
export const systemActor = (id = 'system'): Actor => Object.freeze({ kind: 'system', id });

export const scopeOf = (
  orgIds: readonly string[],
  readAhead?: Map<string, unknown>,
  actor: Actor = systemActor(),
): Scope => Object.freeze({ orgIds: Object.freeze([...orgIds]), ...(readAhead && { readAhead }), actor });

export const inScope = (scope: Scope, orgId: string): boolean => scope.orgIds.includes(orgId);
