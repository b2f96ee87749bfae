/**
 * Checks the caller once per request, against the route table's schemes and permission, and hands the
 * handler the data-layer scope that follows from it.
 */
import { authenticate, authorise } from '../../auth/principal';
import { scopeOf } from '../../data/scope';
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
    context.scope =
      route.permission === 'authenticated' || route.permission === null
        ? scopeOf([...principal.permissions.keys()])
        : authorise(principal, route.permission, event.pathParameters?.org_id);
  },
});
