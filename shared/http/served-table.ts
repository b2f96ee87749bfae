/**
 * What an area function's entry registers before it serves, in place of the composition root: the routes
 * a request reaching it can match or a link can name, and the permission catalogue, as build-time data
 * (`infra/area-bundle.ts` derives both from `shared/routes.ts`), and its own manifest, whose routes it
 * serves. The entry imports the declarations of the types its routes can answer, include or link to
 * before it; a cold start so evaluates those only, not every area's. A route of another area is known by
 * its data (its path for links), never served here.
 */
import { type Permission, registerPermissions } from '../domain/permissions';
import { templateMatcher } from '../route-matcher';
import type { RoutedTable } from './area-router';
import { fallbackRoute } from './fallback-route';
import type { HttpMethod, Route } from './route';
import { registerRoutes } from './route-table';

/**
 * A route as the entry carries it: what matching and links read (id, method, path template, area). The
 * routes it serves come whole from their manifests; another area's route is only ever matched (to send
 * its path to the fallback, which lists its methods) or linked to (its path), so the rest of it, 28 KB
 * as data for 327 routes, would be parsed by every cold start for nothing.
 */
export type RouteData = readonly [id: string, method: HttpMethod, path: string, area: string];

export const servedTable = (
  table: readonly RouteData[],
  manifests: readonly { routes: readonly Route[] }[],
  catalogue: readonly (readonly [string, string])[],
): RoutedTable => {
  const declared = new Map(
    manifests.flatMap((manifest) => manifest.routes.map((route) => [route.id, route])),
  );
  const routes = table.map(
    ([id, method, path, area]) => declared.get(id) ?? ({ id, method, path, area } as Partial<Route> as Route),
  );
  registerRoutes(routes);
  registerPermissions(new Map(catalogue) as ReadonlyMap<Permission, string>);
  return { matchRoute: templateMatcher<HttpMethod, Route>(routes), fallbackRoute };
};
