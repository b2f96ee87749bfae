/**
 * The route table: every area's routes (its declared resources' endpoints and its bespoke entries, see
 * `shared/engine/area.ts`), assembled in this one place for the stack, the local adapter, the
 * fallback and the tests. Adding a resource = a declaration in its area; nothing is listed here.
 *
 * The one composition root: it imports every area, and nothing under it imports it. It registers the
 * table it assembles (`http/route-table.ts`) for the handlers and links that find a route by id, and
 * workers, consumers and the local server load it first, so every declaration has registered its type
 * (`engine/resource-definition.ts`) before a request is served. An area function's entry loads only the
 * manifests its routes need, with this table as build-time data (`infra/area-bundle.ts`).
 */
import type * as z from 'zod';
import { area as actions } from '#functions/actions/area';
import { area as agents } from '#functions/agents/area';
import { area as assets } from '#functions/assets/area';
import { area as audit } from '#functions/audit/area';
import { area as auth } from '#functions/auth/area';
import { area as cdm } from '#functions/cdm/area';
import { area as comments } from '#functions/comments/area';
import { area as costs } from '#functions/costs/area';
import { area as customers } from '#functions/customers/area';
import { area as deviceBackups } from '#functions/device-backups/area';
import { area as documents } from '#functions/documents/area';
import { area as events } from '#functions/events/area';
import { area as exportsArea } from '#functions/exports/area';
import { area as featureConfigurations } from '#functions/feature-configurations/area';
import { area as iam } from '#functions/iam/area';
import { area as images } from '#functions/images/area';
import { area as jobs } from '#functions/jobs/area';
import { area as notifications } from '#functions/notifications/area';
import { area as organisations } from '#functions/organisations/area';
import { area as people } from '#functions/people/area';
import { area as places } from '#functions/places/area';
import { area as projects } from '#functions/projects/area';
import { area as qualifications } from '#functions/qualifications/area';
import { area as siteAttendances } from '#functions/site-attendances/area';
import { area as specifications } from '#functions/specifications/area';
import { area as status } from '#functions/status/area';
import { area as streetWorks } from '#functions/street-works/area';
import { area as streetWorksFeed } from '#functions/street-works/feed-area';
import { area as webhooks } from '#functions/webhooks/area';
import { eventNames, everyEventSourceDeclared, typesNamed } from './data/events';
import { isPermission, type Permission, registerPermissions } from './domain/permissions';
import type { FeatureDeclaration } from './engine/area';
import { assembleNotificationRules, assemblePermissions, undeclaredPermissions } from './engine/assembly';
import { inStageOrder } from './engine/event-consumers';
import { registerFeatureCatalogue } from './engine/feature-catalogue';
import { migrationsInOrder } from './engine/migration-declarations';
import { type CataloguedRule, registerNotificationRules } from './engine/notification-rules';
import { targetTypes } from './engine/relationship-targets';
import { declaredType, type ResourceDefinition } from './engine/resource-definition';
import { readPermissionsOf, registerReadPermissions } from './http/read-permissions';
import type { HttpMethod, Route } from './http/route';
import { registerRoutes, routeById } from './http/route-table';
import { type TemplateMatch, templateMatcher } from './route-matcher';

export type { HttpMethod, Route, RouteAccess } from './http/route';

const areaList = [
  status,
  auth,
  organisations,
  people,
  qualifications,
  siteAttendances,
  featureConfigurations,
  iam,
  assets,
  audit,
  places,
  projects,
  costs,
  cdm,
  streetWorks,
  streetWorksFeed,
  customers,
  agents,
  comments,
  documents,
  images,
  deviceBackups,
  exportsArea,
  jobs,
  events,
  webhooks,
  notifications,
  specifications,
  actions,
] as const;

export const routes = areaList.flatMap((area) => area.routes as readonly AnyRoute[]);

/** Every kind of work due later, as the areas declare them: what the one due-work runner runs. */
export const dueWorkKinds = areaList.flatMap((area) => area.dueWork);

type AnyRoute = (typeof areaList)[number]['routes'][number];

/**
 * The permission catalogue: each area's permissions, in the order of the areas above (and each area's
 * in its manifest's order): the order of the admin role's permissions and of the document's enums. A
 * permission declared by two areas, or a route requiring one no area declares, stops the service loading.
 */
export const permissionCatalogue = assemblePermissions(areaList) as ReadonlyMap<Permission, string>;

const undeclared = undeclaredPermissions(routes, permissionCatalogue);
if (undeclared.length > 0)
  throw new Error(`routes require permissions no area declares: ${undeclared.join(', ')}`);

registerPermissions(permissionCatalogue);
everyEventSourceDeclared();

type PermissionsOf<Area> = Area extends { permissions: infer Declared } ? keyof Declared & string : never;

declare module './domain/permissions' {
  /** The declared permissions' names: `Permission` is their union, so a misspelt one fails to compile. */
  interface PermissionTable {
    permission: PermissionsOf<(typeof areaList)[number]>;
  }
}

/** Every event consumer, in the order the stream runs them: by stage, then in the order of the areas above. */
export const eventConsumers = inStageOrder(areaList.flatMap((area) => area.consumers));

/**
 * The features an organisation may switch off, one per area whose manifest declares one, by the area's
 * name: each organisation's switch is its feature configuration record with an id derived from both
 * (`data/feature-switches.ts`), registered for the switches (`engine/feature-catalogue.ts`).
 */
export const featureCatalogue: ReadonlyMap<string, FeatureDeclaration> = new Map(
  areaList.flatMap((area) => (area.feature ? [[area.name, area.feature] as const] : [])),
);
registerFeatureCatalogue(featureCatalogue);

/** Every kind of job the worker runs, as the areas declare them. */
export const jobKinds = areaList.flatMap((area) => area.jobs);

/** Every migration, in the one order the runner applies them (`npm run migrate`; after each deploy). */
export const migrations = migrationsInOrder(areaList.flatMap((area) => area.migrations));

declare module './http/route-table' {
  /** The assembled routes' literal types: route ids are checked and path parameters typed below. */
  interface RouteTable {
    route: AnyRoute;
  }
}

/** Every resource type the service serves, by type name: the include resolver walks relationships here. */
export const resourceTypes: ReadonlyMap<string, ResourceDefinition> = new Map(
  areaList.flatMap((area) => area.resources.map((resource) => [resource.type, resource] as const)),
);

// The engine finds types by name among the declarations made: two declarations of one type would leave
// it reading the other one.
for (const [type, resource] of resourceTypes) {
  if (declaredType(type) !== resource) throw new Error(`${type} is declared more than once`);
  // A polymorphic link to a type nobody serves would be taken from clients, written unchecked and never
  // included. (Single-type links may name a type still to come, as a team's form schemas do, which no
  // write takes yet.)
  for (const [name, { types = [] }] of Object.entries(resource.relationships))
    for (const target of types)
      if (!resourceTypes.has(target))
        throw new Error(`${type}.${name} names ${target}, which no area serves`);
}

/**
 * Every area's notification rules (their defaults; organisations override them per rule id), each checked
 * against the declarations here: a rule naming an undeclared event, relationship or permission stops the
 * service loading. Registered for the notifications routes and consumer; the notifications function's
 * entry carries the same list as data (`infra/area-bundle.ts`).
 */
export const notificationRules: readonly CataloguedRule[] = assembleNotificationRules(areaList, {
  eventNames: new Set(eventNames()),
  typesNamed,
  relationshipsOf: (type) =>
    new Map(
      Object.entries(resourceTypes.get(type)?.relationships ?? {}).map(([name, relationship]) => [
        name,
        targetTypes(relationship),
      ]),
    ),
  isPermission,
});
registerNotificationRules(notificationRules);

/** The read attributes of the types routes answer with that no declaration is (whoami, events), by type. */
export const answeredTypes: ReadonlyMap<string, () => Promise<z.ZodRawShape> | z.ZodRawShape> = new Map(
  areaList.flatMap((area) => Object.entries(area.answered)),
);

/** The catch-all, for paths no route has (`http/fallback-route.ts`). */
export { fallbackRoute } from './http/fallback-route';
export type { PathOf, RouteId } from './http/route-table';

registerRoutes(routes);
registerReadPermissions(readPermissionsOf(routes));

export { routeById };

export type RouteMatch = TemplateMatch<Route>;

/** Finds the route for a method and path; `allowed` lists the methods the path has when none match. */
export const matchRoute = templateMatcher<HttpMethod, Route>(routes);
