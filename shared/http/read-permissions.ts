/**
 * The permission that reads each type, for the change feed and webhook subscriptions, which show records
 * of every type: that of its declared reads, else of a route answering it (not `whoami`'s, which any
 * caller may read about itself); `authenticated` means any member (exports). The composition root
 * registers it from every route; an area function's entry, which registers only its part of the table,
 * carries it as build-time data made by the same function (`infra/area-bundle.ts`). Asked for where
 * neither registered it, it refuses: a shorter list would show or refuse records wrongly.
 */
import type { Route } from './route';

export const readPermissionsOf = (routes: readonly Route[]): Map<string, string> => {
  const found = new Map<string, string>();
  const gets = routes.filter((r) => r.method === 'GET' && typeof r.permission === 'string');
  for (const route of gets) {
    const type = route.declared?.resource.type;
    if (type && !found.has(type)) found.set(type, route.permission as string);
  }
  for (const route of gets) {
    const type = route.answers?.resource ?? [route.answers?.collection ?? []].flat()[0];
    if (type && !found.has(type) && route.permission !== 'authenticated')
      found.set(type, route.permission as string);
  }
  return found;
};

let registered: ReadonlyMap<string, string> | undefined;

export const registerReadPermissions = (permissions: Iterable<readonly [string, string]>): void => {
  registered = new Map(permissions);
};

export const viewPermissions = (): ReadonlyMap<string, string> => {
  if (!registered)
    throw new Error(
      'each type’s read permission is asked for where it was not registered: load shared/routes.ts',
    );
  return registered;
};
