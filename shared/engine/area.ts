/**
 * An area: the resource types it declares, its bespoke routes and the kinds of work due later it runs. Its
 * route list is the generic endpoints each declaration names, then the bespoke entries, with the house
 * defaults filled in; the area's Lambda function serves exactly that list (`shared/routes.ts` assembles
 * the areas).
 */

import { isPermission } from '../domain/permissions';
import {
  defaultAccess,
  type HttpMethod,
  type Operation,
  type Route,
  type RouteEntry,
  USER_OR_MACHINE,
} from '../http/route';
import type { DueWorkKind } from './due-work-kind';
import type { AnsweredTypes } from './read-attributes';
import type { EndpointDeclaration, ResourceDefinition } from './resource-definition';

/** The module that builds a generic endpoint's handler from its route. */
export const GENERIC_ENDPOINTS = 'shared/engine/generic-endpoints.ts';

const METHOD = { list: 'GET', get: 'GET', create: 'POST', update: 'PATCH', delete: 'DELETE' } as const;

/** The routes a declaration's endpoints become, typed from its names and paths (typed ids and params). */
export type GenericRoutes<D> = D extends {
  names: { one: infer One extends string; many: infer Many extends string };
  endpoints: infer Endpoints;
}
  ? {
      [Op in keyof Endpoints & Operation]: Route & {
        id: `${Op}${Op extends 'list' ? Many : One}`;
        method: (typeof METHOD)[Op];
        path: Endpoints[Op] extends { path: infer Path extends string }
          ? Path
          : (Op extends 'list' | 'create' ? D['collectionPath' & keyof D] : D['itemPath' & keyof D]) & string;
      };
    }[keyof Endpoints & Operation]
  : never;

const endpointRoute = (
  area: string,
  tag: string,
  resource: ResourceDefinition,
  operation: Operation,
  endpoint: EndpointDeclaration,
): Route => {
  const { names, collectionPath, itemPath, permission } = resource;
  const options = typeof endpoint === 'object' ? endpoint : {};
  const path = options.path ?? (operation === 'list' || operation === 'create' ? collectionPath : itemPath);
  if (!names || !path) throw new Error(`${resource.type} declares ${operation} without its names and path`);
  const method: HttpMethod = METHOD[operation];
  const handler = typeof endpoint === 'string' ? endpoint : (options.handler ?? GENERIC_ENDPOINTS);
  const named = options.permission ?? `${permission}:${method === 'GET' ? 'view' : 'manage'}`;
  // A write on a family with no `:manage` (or no family at all) names its permission on the endpoint.
  if (named !== 'authenticated' && !isPermission(named))
    throw new Error(`${resource.type} ${operation}: ${named} is not in the permission catalogue`);
  return {
    id: `${operation}${operation === 'list' ? names.many : names.one}`,
    area,
    tag: resource.tag ?? tag,
    method,
    path,
    handler,
    auth: USER_OR_MACHINE,
    permission: named,
    access: options.access ?? defaultAccess(method),
    ...(options.query && { query: options.query }),
    ...(options.answers && { answers: options.answers }),
    ...(options.self && { self: options.self }),
    declared: { resource, operation },
  };
};

export const defineArea = <
  const Resources extends readonly ResourceDefinition[],
  const Entries extends readonly RouteEntry[],
>(
  name: string,
  {
    tag,
    resources,
    routes,
    answered = {},
    examples,
    dueWork = [],
  }: {
    tag: string;
    resources: Resources;
    routes: Entries;
    /** The read attributes of types its routes answer with that none of its declarations is (whoami). */
    answered?: AnsweredTypes;
    /** Its request examples' module (`engine/examples.ts`), by path: tests, bench and OpenAPI load it. */
    examples?: `functions/${string}/examples.ts`;
    /** The kinds of work due later its records put on the due index (the one runner reads them here). */
    dueWork?: readonly DueWorkKind[];
  },
) => ({
  name,
  resources,
  answered,
  examples,
  dueWork,
  routes: [
    ...resources.flatMap((resource) =>
      Object.entries(resource.endpoints ?? {}).map(([operation, endpoint]) =>
        endpointRoute(name, tag, resource, operation as Operation, endpoint),
      ),
    ),
    ...routes.map((entry) => ({
      auth: USER_OR_MACHINE,
      access: defaultAccess(entry.method),
      tag,
      ...entry,
      area: name,
    })),
  ] as (GenericRoutes<Resources[number]> | (Entries[number] & Route))[],
});
