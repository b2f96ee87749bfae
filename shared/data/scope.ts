/**
 * The organisations a request may read, decided once by the auth middleware from the caller's grants
 * and the route's permission. Every data-layer read takes one: keys are only ever built inside it, and
 * records outside it are "not found", so no handler can forget the check.
 */
export interface Scope {
  readonly orgIds: readonly string[];
  /**
   * Records read in the same round trip as the caller's credentials (a single-record GET names its
   * record before anyone is authorised), by `keyId`, null where absent. The data layer hands each out
   * once, to the first read of its key, and only as it would a fresh read: inside the scope or not at all.
   */
  readonly readAhead?: Map<string, unknown>;
}

export const scopeOf = (orgIds: readonly string[], readAhead?: Map<string, unknown>): Scope =>
  Object.freeze({ orgIds: Object.freeze([...orgIds]), ...(readAhead && { readAhead }) });

export const inScope = (scope: Scope, orgId: string): boolean => scope.orgIds.includes(orgId);
