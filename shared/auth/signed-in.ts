/**
 * The caller of an authenticated route (the middleware has already refused anyone else). A module of its
 * own, so the moves a declaration names (a CDM party rule) can ask it without loading how callers are
 * authenticated (`principal.ts` and the token verifier) into every function's cold start.
 */
import type { Principal } from './principal';

export const signedIn = (principal: Principal | null): Principal => {
  if (!principal) throw new Error('An authenticated route ran without a principal');
  return principal;
};
