/**
 * The organisations a request may read, decided once by the auth middleware from the caller's grants
 * and the route's permission. Every data-layer read takes one: keys are only ever built inside it, and
 * records outside it are "not found", so no handler can forget the check.
 */
export interface Scope {
  readonly orgIds: readonly string[];
}

export const scopeOf = (orgIds: readonly string[]): Scope =>
  Object.freeze({ orgIds: Object.freeze([...orgIds]) });

export const inScope = (scope: Scope, orgId: string): boolean => scope.orgIds.includes(orgId);
