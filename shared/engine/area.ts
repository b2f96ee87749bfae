/**
 * An area: the resource types it declares, its bespoke routes, the permissions it owns, the event
 * consumers it runs, the kinds of job its worker runs, the kinds of work due later it runs and the
 * migrations of the records it keeps. Its route
 * list is the generic endpoints each declaration names, then the bespoke entries, with the house defaults
 * filled in; the area's Lambda function serves exactly that list (`shared/routes.ts` assembles the areas,
 * and their permission catalogue, consumers, job kinds and due-work kinds).
 */

import type { Permission, PermissionDeclarations } from '../domain/permissions';
import {
  defaultAccess,
  type HttpMethod,
  type Operation,
  type Route,
  type RouteEntry,
  USER_OR_MACHINE,
} from '../http/route';
import type { DueWorkKind } from './due-work-kind';
import type { DeclaredConsumer } from './event-consumers';
import type { DeclaredJobKind } from './job-kinds';
import { transitionPermission } from './lifecycle';
import type { DeclaredMigration } from './migration-declarations';
import type { NotificationRule } from './notification-rules';
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
      [Op in keyof Endpoints & Operation]: Omit<Route, 'permission' | 'self'> & {
        id: `${Op}${Op extends 'list' ? Many : One}`;
        method: (typeof METHOD)[Op];
        path: Endpoints[Op] extends { path: infer Path extends string }
          ? Path
          : (Op extends 'list' | 'create' ? D['collectionPath' & keyof D] : D['itemPath' & keyof D]) & string;
        // The names as written, so the composition root can check them against the catalogue.
        permission: Endpoints[Op] extends { permission: infer Named extends string }
          ? Named
          : `${D['permission' & keyof D] & string}:${Op extends 'list' | 'get' ? 'view' : 'manage'}`;
        self?: Endpoints[Op] extends { self: infer Self extends string } ? Self : never;
      };
    }[keyof Endpoints & Operation]
  : never;

/** A verb as an operation id begins: `sign-out` makes `signOut` (its path keeps the verb). */
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Camel<Capitalize<Tail>>}`
  : S;
const camel = (verb: string) => verb.replace(/-(.)/g, (_, next: string) => next.toUpperCase());

/**
 * The verbs a machine declares for clients: not its workers' (no route), nor the `string` index its
 * declared type is intersected with (else every machine would type a `${string}<One>` route as well).
 */
type DeclaredVerbs<Transitions> = keyof {
  [Verb in keyof Transitions as string extends Verb
    ? never
    : Transitions[Verb] extends { by: 'worker' }
      ? never
      : Verb]: true;
} &
  string;

/**
 * The routes a declaration's transitions become: `<verb><One>` (or the id the move's route had before),
 * `POST <itemPath>/<verb>`, typed likewise.
 */
export type TransitionRoutes<D> = D extends {
  names: { one: infer One extends string };
  lifecycle: { transitions: infer Transitions };
}
  ? {
      [Verb in DeclaredVerbs<Transitions>]: Omit<Route, 'permission' | 'self'> & {
        id: Transitions[Verb] extends { operationId: infer Named extends string }
          ? Named
          : `${Camel<Verb>}${One}`;
        method: 'POST';
        path: `${D['itemPath' & keyof D] & string}/${Verb}`;
        permission: Transitions[Verb] extends { permission: infer Named extends string }
          ? Named
          : `${D['permission' & keyof D] & string}:manage`;
      };
    }[DeclaredVerbs<Transitions>]
  : never;

/**
 * A declared transition's route: its permission is the transition's (the route's own check), else the
 * family's `manage`; party rules and guards are the engine's to apply on the record (`transition.ts`).
 */
const transitionRoutes = (area: string, tag: string, resource: ResourceDefinition): Route[] =>
  Object.entries(resource.lifecycle?.transitions ?? {})
    .filter(([, transition]) => transition.by !== 'worker')
    .map(([verb, transition]) => {
      const { names, itemPath } = resource;
      if (!names || !itemPath)
        throw new Error(`${resource.type} declares transitions without its names and item path`);
      return {
        id: transition.operationId ?? `${camel(verb)}${names.one}`,
        area,
        tag: resource.tag ?? tag,
        method: 'POST',
        path: `${itemPath}/${verb}`,
        handler: GENERIC_ENDPOINTS,
        auth: USER_OR_MACHINE,
        permission: transitionPermission(resource.permission, transition) as Permission,
        ...(transition.byParty && { party: transition.byParty.permission as Permission }),
        access: transition.access ?? defaultAccess('POST'),
        answers: { status: 200, resource: transition.answers ?? resource.type },
        declared: { resource, operation: 'transition', verb },
      };
    });

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
  // A write on a family with no `:manage` (or no family at all) names its permission on the endpoint; the
  // composition root refuses a permission no area declares.
  const named = options.permission ?? `${permission}:${method === 'GET' ? 'view' : 'manage'}`;
  return {
    id: `${operation}${operation === 'list' ? names.many : names.one}`,
    area,
    tag: resource.tag ?? tag,
    method,
    path,
    handler,
    auth: USER_OR_MACHINE,
    // As written: the composition root checks it names a declared permission (its type, and at load).
    permission: named as Permission | 'authenticated',
    access: options.access ?? defaultAccess(method),
    ...(options.query && { query: options.query }),
    ...(options.answers && { answers: options.answers }),
    ...(options.self && { self: options.self as Permission }),
    ...(options.party && { party: options.party as Permission }),
    declared: { resource, operation },
  };
};

/** An area as the composition root assembles it. */
/** What an area that an organisation may switch off says about itself: the catalogue's entry. */
export interface FeatureDeclaration {
  /** What the organisation loses while it is off, for the catalogue. */
  description: string;
}

export interface Area<Resources, Entries extends readonly RouteEntry[], Permissions> {
  name: string;
  /** Set when an organisation may switch the area off: the feature is named by the area. */
  feature?: FeatureDeclaration;
  resources: Resources;
  answered: AnsweredTypes;
  permissions: Permissions;
  consumers: readonly DeclaredConsumer[];
  jobs: readonly DeclaredJobKind[];
  dueWork: readonly DueWorkKind[];
  migrations: readonly DeclaredMigration[];
  notificationRules: readonly NotificationRule[];
  /** Typed with the permissions as written, so the composition root checks them against the catalogue. */
  routes: (
    | GenericRoutes<Resources[keyof Resources & number]>
    | TransitionRoutes<Resources[keyof Resources & number]>
    | (Entries[number] & Omit<Route, 'permission' | 'self'>)
  )[];
}

export const defineArea = <
  const Resources extends readonly ResourceDefinition[],
  const Entries extends readonly RouteEntry[],
  const Permissions extends PermissionDeclarations = Record<never, string>,
>(
  name: string,
  {
    tag,
    resources,
    routes,
    answered = {},
    dueWork = [],
    permissions = {} as Permissions,
    consumers = [],
    jobs = [],
    migrations = [],
    notificationRules = [],
    feature,
  }: {
    tag: string;
    /**
     * Organisations may switch the area off (its name is the feature's): its routes then answer 403
     * `FEATURE.001` there (reads stay open to who may switch it back), its consumers pass their events by
     * and its due work waits. Areas the service cannot run without (identity, access, organisations,
     * feature configurations, status, the document, events and audit) declare none.
     */
    feature?: FeatureDeclaration;
    resources: Resources;
    routes: Entries;
    /** The read attributes of types its routes answer with that none of its declarations is (whoami). */
    answered?: AnsweredTypes;
    /** The kinds of work due later its records put on the due index (the one runner reads them here). */
    dueWork?: readonly DueWorkKind[];
    /** The permissions it owns, each with what it allows: its part of the catalogue. */
    permissions?: Permissions;
    /** What it does with events after their transaction commits (the table's stream hands it each). */
    consumers?: readonly DeclaredConsumer[];
    /** The kinds of job (`attributes.kind`) whose work it brings to the job worker. */
    jobs?: readonly DeclaredJobKind[];
    /** The migrations that carry its records' stored shapes over (`migration-declarations.ts`). */
    migrations?: readonly DeclaredMigration[];
    /**
     * Which of its events notify whom, by default (`notification-rules.ts`): organisations override them
     * per rule id; the composition root checks each against the declarations as it loads.
     */
    notificationRules?: readonly NotificationRule[];
  },
): Area<Resources, Entries, Permissions> => {
  // The switch travels with what the area runs, so the layers that run it need not know the areas.
  const switched = feature ? { feature: name } : {};
  return {
    name,
    ...(feature && { feature }),
    resources,
    answered,
    dueWork: dueWork.map((kind) => ({ ...kind, ...switched })),
    permissions,
    consumers: consumers.map((consumer) => ({ ...consumer, ...switched })),
    jobs,
    migrations,
    notificationRules,
    routes: [
      ...resources.flatMap((resource) =>
        Object.entries(resource.endpoints ?? {}).map(([operation, endpoint]) =>
          endpointRoute(name, tag, resource, operation as Operation, endpoint),
        ),
      ),
      ...resources.flatMap((resource) => transitionRoutes(name, tag, resource)),
      ...routes.map((entry) => ({
        auth: USER_OR_MACHINE,
        access: defaultAccess(entry.method),
        tag,
        ...entry,
        area: name,
      })),
    ].map((route) => ({ ...route, ...switched })) as Area<Resources, Entries, Permissions>['routes'],
  };
};
