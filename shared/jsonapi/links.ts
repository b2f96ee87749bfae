/**
 * Every URL the API answers with (`links.self`, `Location`, `Link`) is built here from the route table,
 * so a link can only name a path that a GET route serves: the two cannot drift apart.
 */
import type { StoredResource } from '../data/stored-resource';
import { routeById, type routes } from '../routes';

/** The routes a link may name: only a GET route answers a client that follows the link. */
export type GetRouteId = Extract<(typeof routes)[number], { method: 'GET' }>['id'];

const PARAMETER = /\{(\w+)\}/g;

/** The names of a route's path parameters, in path order. */
export const routeParameters = (id: GetRouteId): string[] =>
  [...routeById(id).path.matchAll(PARAMETER)].map(([, name]) => name ?? '');

/** A GET route's path with each `{name}` filled from `params`, percent-encoded. */
export const routePath = (id: GetRouteId, params: Readonly<Record<string, string>> = {}): string =>
  routeById(id).path.replace(PARAMETER, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Route ${id} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });

/**
 * The path of a record's own page, from the GET route that serves one record of its type: `{org_id}`
 * is the record's organisation and the last parameter its id. Routes with any other parameter are
 * refused when the type is defined (their value could not come from the record alone).
 */
export const recordPath = (id: GetRouteId): ((record: StoredResource) => string) => {
  const names = routeParameters(id);
  const idName = names.at(-1);
  const other = names.filter((name) => name !== idName && name !== 'org_id');
  if (!idName || other.length > 0)
    throw new Error(`Route ${id} cannot serve a record: it must end in the id and take no other ids`);
  return (record) => routePath(id, { org_id: record.org_id, [idName]: record.id });
};
