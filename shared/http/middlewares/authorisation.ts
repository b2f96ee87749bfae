/**
 * Checks the caller once per request, against the route table's schemes and permission, and hands the
 * handler the data-layer scope that follows from it.
 */
import { authenticate, authorise } from '../../auth/principal';
import { scopeOf } from '../../data/scope';
import { NotFoundError } from '../../jsonapi/errors';
import type { Route } from '../../routes';
import type { ApiMiddleware } from '../api-context';

export const authorisation = (route: Route): ApiMiddleware => ({
  before: async ({ event, context }) => {
    if (route.auth.length === 0) {
      context.principal = null;
      context.scope = scopeOf([]);
      return;
    }
    const principal = await authenticate(event.headers ?? {}, event.cookies, route.auth);
    context.principal = principal;
    const pathOrgId = event.pathParameters?.org_id;
    if (route.permission === 'authenticated' || route.permission === null) {
      // No permission of its own (whoami, exports): any organisation the caller holds grants in.
      if (pathOrgId !== undefined && !principal.permissions.has(pathOrgId)) throw new NotFoundError();
      context.scope = scopeOf([...principal.permissions.keys()]);
      return;
    }
    context.scope = authorise(principal, route.permission, pathOrgId);
  },
});
