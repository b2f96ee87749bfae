/**
 * URLs the API answers with that are not a record's own (`Location` of a nested entry, a roll-up's
 * filtered collection, whoami's links) are built here from the route table, so a link can only name a
 * path that a GET route serves (the table the composition root registers). A record's own path comes from its declaration's item path; a document's
 * top-level links are the request's own URL (`document-links.ts`).
 */
import { fillPath, type ParamsOf } from './path-template';
import { type PathOf, type RouteId, routeById, type TableRoute } from './route-table';

/** The routes a link may name: only a GET route answers a client that follows the link. */
export type GetRouteId = Extract<Extract<TableRoute, { method: 'GET' }>['id'], RouteId>;

/** A GET route's path with each `{name}` filled from `params`, percent-encoded. */
export const routePath = <Id extends GetRouteId>(id: Id, ...[params]: OptionalParams<PathOf<Id>>): string =>
  fillPath(routeById(id).path, params ?? {});

/** The parameters a route's path needs: none for a path without parameters. */
type OptionalParams<Path extends string> = keyof ParamsOf<Path> extends never
  ? [params?: Record<string, never>]
  : [params: ParamsOf<Path>];
