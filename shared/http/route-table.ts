/**
 * The assembled route table as the layers under the composition root see it. `shared/routes.ts` imports
 * every area and registers the routes it assembles here once, when it loads; handlers and links find a
 * route by id here, so nothing below it imports the table (an import back up would tie every area into
 * one import circle, whose evaluation order a bundle and Node need not agree on). A worker, a consumer and
 * the local server load the composition root first; an area function's entry registers the table as
 * build-time data, with its own areas' routes whole (`served-table.ts`).
 *
 * The table's types come the same way: `shared/routes.ts` adds its routes' literal type to `RouteTable`
 * (declaration merging), so a handler naming its route by id still gets a checked id and typed path
 * parameters without importing it.
 */
import type { Route } from './route';

/** Filled by `shared/routes.ts` with `{ route: <the union of its routes> }`. */
// biome-ignore lint/suspicious/noEmptyInterface: an interface merged from the composition root, empty here by design.
export interface RouteTable {}

/** A route of the assembled table, with its literal id, method and path (any route before it is merged). */
export type TableRoute = RouteTable extends { route: infer Assembled extends Route } ? Assembled : Route;

export type RouteId = TableRoute['id'];

/** The path template of a route, by id: handlers get their path parameters typed from it. */
export type PathOf<Id extends RouteId> = Extract<TableRoute, { id: Id }>['path'];

let registered: { routes: readonly Route[]; byId: ReadonlyMap<string, Route> } | undefined;

/** Called once by the composition root with every route it assembles. */
export const registerRoutes = (routes: readonly Route[]): void => {
  const byId = new Map<string, Route>();
  for (const route of routes) if (!byId.has(route.id)) byId.set(route.id, route);
  registered = { routes, byId };
};

const table = () => {
  if (!registered)
    throw new Error('no route table registered: import shared/routes.ts before serving a route');
  return registered;
};

/** Every route of the assembled table, in its order. */
export const registeredRoutes = (): readonly Route[] => table().routes;

export const routeById = (id: RouteId): Route => {
  const found = table().byId.get(id);
  if (!found) throw new Error(`no route ${id}`);
  return found;
};
