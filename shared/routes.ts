/**
 * The route table: every area's routes (its declared resources' endpoints and its bespoke entries, see
 * `shared/resources/area.ts`), assembled in this one place for the stack, the local adapter, the
 * fallback and the tests. Adding a resource = a declaration in its area; nothing is listed here.
 */
import type * as z from 'zod';
import type { HttpMethod, Route } from './http/route';
import { area as agents } from './resources/agents/area';
import { area as assets } from './resources/assets/area';
import { area as audit } from './resources/audit/area';
import { area as auth } from './resources/auth/area';
import { area as cdm } from './resources/cdm/area';
import { area as comments } from './resources/comments/area';
import { area as costs } from './resources/costs/area';
import { area as customers } from './resources/customers/area';
import { area as deviceBackups } from './resources/device-backups/area';
import { area as documents } from './resources/documents/area';
import { area as events } from './resources/events/area';
import { area as exportsArea } from './resources/exports/area';
import { area as featureConfigurations } from './resources/feature-configurations/area';
import { area as iam } from './resources/iam/area';
import { area as organisations } from './resources/organisations/area';
import { area as people } from './resources/people/area';
import { area as places } from './resources/places/area';
import { area as projects } from './resources/projects/area';
import { area as qualifications } from './resources/qualifications/area';
import type { ResourceDefinition } from './resources/resource-definition';
import { area as siteAttendances } from './resources/site-attendances/area';
import { area as specifications } from './resources/specifications/area';
import { area as status } from './resources/status/area';
import { area as streetWorks } from './resources/street-works/area';
import { area as streetWorksFeed } from './resources/street-works-feed/area';
import { area as webhooks } from './resources/webhooks/area';
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
  deviceBackups,
  exportsArea,
  events,
  webhooks,
  specifications,
] as const;

export const routes = areaList.flatMap((area) => area.routes as readonly AnyRoute[]);

/** Every kind of work due later, as the areas declare them: what the one due-work runner runs. */
export const dueWorkKinds = areaList.flatMap((area) => area.dueWork);

type AnyRoute = (typeof areaList)[number]['routes'][number];

/** Every resource type the service serves, by type name: the include resolver walks relationships here. */
export const resourceTypes: ReadonlyMap<string, ResourceDefinition> = new Map(
  areaList.flatMap((area) => area.resources.map((resource) => [resource.type, resource] as const)),
);

/** The read attributes of the types routes answer with that no declaration is (whoami, events), by type. */
export const answeredTypes: ReadonlyMap<string, () => z.ZodRawShape> = new Map(
  areaList.flatMap((area) => Object.entries(area.answered)),
);

export type RouteId = AnyRoute['id'];

/** The path template of a route, by id: handlers get their path parameters typed from it. */
export type PathOf<Id extends RouteId> = Extract<AnyRoute, { id: Id }>['path'];

/**
 * The catch-all: API Gateway's `$default` route and the local adapter send every request that matches
 * no entry above here, so unknown paths (404) and wrong methods (405) answer as JSON:API documents.
 */
export const fallbackRoute = {
  id: 'fallback',
  method: 'GET',
  path: '$default',
  area: 'fallback',
  tag: 'Status',
  handler: 'functions/fallback/not-found.ts',
  auth: [],
  permission: null,
  access: {},
} as const satisfies Route;

export const routeById = (id: RouteId): Route => {
  const found = routes.find((r) => r.id === id);
  if (!found) throw new Error(`no route ${id}`);
  return found;
};

export type RouteMatch = TemplateMatch<Route>;

/** Finds the route for a method and path; `allowed` lists the methods the path has when none match. */
export const matchRoute = templateMatcher<HttpMethod, Route>(routes);
