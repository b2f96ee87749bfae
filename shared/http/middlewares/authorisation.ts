/**
 * Checks the caller once per request, against the route table's schemes and permission, and hands the
 * handler the data-layer scope that follows from it, with any records the handler reads ahead.
 */
import { actorOf, authenticate, authorise, type Principal } from '../../auth/principal';
import { scopeOf } from '../../data/scope';
import type { ItemKey } from '../../data/stored-resource';
import { NotFoundError } from '../../jsonapi/errors';
import type { Route } from '../../routes';
import type { ApiMiddleware } from '../api-context';

/** The records a handler will read, named from the path before the caller is known. */
export type ReadAhead = (params: Readonly<Record<string, string | undefined>>) => ItemKey[];

/** The organisations the caller reaches on this route. */
const orgsOf = (route: Route, principal: Principal, pathOrgId: string | undefined): readonly string[] => {
  if (route.permission !== 'authenticated' && route.permission !== null)
    return authorise(principal, route.permission, pathOrgId).orgIds;
  // No permission of its own (whoami, exports): any organisation the caller holds grants in.
  if (pathOrgId !== undefined && !principal.permissions.has(pathOrgId)) throw new NotFoundError();
  return [...principal.permissions.keys()];
};

export const authorisation = (route: Route, readAhead?: ReadAhead): ApiMiddleware => ({
  before: async ({ event, context }) => {
    if (route.auth.length === 0) {
      context.principal = null;
      context.scope = scopeOf([]);
      return;
    }
    const { principal, readAhead: read } = await authenticate(
      event.headers ?? {},
      event.cookies,
      route.auth,
      readAhead?.(event.pathParameters ?? {}),
    );
    context.principal = principal;
    context.scope = scopeOf(orgsOf(route, principal, event.pathParameters?.org_id), read, actorOf(principal));
  },
});
