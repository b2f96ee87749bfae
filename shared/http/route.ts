/**
 * What a route is, and the house defaults an area's route list leaves out: the user-or-machine schemes,
 * table read for GET and write otherwise. Routes come from resource declarations (their generic
 * endpoints) and from each area's bespoke entries (`shared/engine/area.ts`).
 */
import type { AuthScheme } from '../auth/schemes';
import type { ItemKey } from '../data/stored-resource';
import type { Permission, PermissionName } from '../domain/permissions';
import type { CollectionOptions } from '../jsonapi/collection-query';

/**
 * The longest a route's function runs (its Lambda timeout): what a request may take, and how long an
 * idempotency claim must outlive it.
 */
export const FUNCTION_TIMEOUT_SECONDS = 10;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route's function may touch; the stack gives each area function the union of its routes'. */
/**
 * What the HTTP layer reads of a declared resource: its type, where a record of it is kept, what a GET
 * derives it from, and its collection's query features. The engine's declaration (`ResourceDefinition`)
 * has all this and more; the layer below it names only this, so it imports nothing of the engine.
 */
export interface DeclaredResource {
  type: string;
  keyOf: (orgId: string, id: string) => ItemKey;
  derivedKeys?: (orgId: string, id: string) => ItemKey[];
  collection?: CollectionOptions;
  /** Its state machine as a PATCH sees it: the attribute only moves change, and their verbs. */
  lifecycle?: StateAttribute;
}

/** What the update route reads of a declared machine (`engine/lifecycle.ts` has the rest). */
export interface StateAttribute {
  /** None for a machine whose state is read from what the record keeps: no PATCH can name it. */
  attribute?: string;
  /** Its moves; a worker's (`by: 'worker'`) has no route. */
  transitions: Readonly<Record<string, { by?: 'worker' }>>;
  /** The PATCH of the attribute is an alias of the moves: the bespoke update makes them. */
  patchAlias?: true;
}

export interface RouteAccess {
  table?: 'read' | 'write';
  buckets?: {
    deviceBackups?: 'read' | 'write';
    exports?: 'read' | 'write';
    documents?: 'read' | 'write';
    images?: 'read' | 'write';
  };
  /** Sign tokens with the KMS signing key. */
  signing?: true;
  /** Confirm SNS subscriptions to the configured street-works topics. */
  sns?: 'confirm';
  /**
   * The KMS key of webhook signing secrets: the API only encrypts new secrets; only the delivery
   * functions (event consumer, retry runner) decrypt them.
   */
  webhookSecrets?: 'encrypt';
  /**
   * The KMS key of SSO providers' client secrets: the routes that set one encrypt it; only the sign-in's
   * callback decrypts it, to authenticate to the provider.
   */
  ssoClientSecrets?: 'encrypt' | 'decrypt';
  /** Read the key that seals collection cursors (`page[cursor]`): any function that pages a collection. */
  cursors?: true;
  /** Send e-mail through SES from the stage's sender address (invitations). */
  email?: true;
}

/** The plain operations a resource declaration can serve with the generic handlers. */
export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';

export interface Route {
  /** Unique and stable: handlers name their route by it, and the bench and tests address routes by it. */
  id: string;
  /** The area whose function serves the route (one Lambda per area). */
  area: string;
  /** The resource area of the spec the route belongs to: its tag in the OpenAPI document. */
  tag: string;
  method: HttpMethod;
  /** API Gateway path template, e.g. `/v3/orgs/{org_id}/people/teams`. */
  path: string;
  /**
   * Module serving the route, relative to the repository root: a bespoke handler module exports
   * `handler`; the generic endpoints module builds one from `declared` (see `shared/engine/generic-endpoints.ts`).
   */
  handler: string;
  /** Accepted schemes; an empty list means the route is public. */
  auth: readonly AuthScheme[];
  /**
   * Permission checked once by the auth middleware: a catalogue permission; `authenticated` for routes
   * any authenticated caller may use about itself (whoami); `null` for public routes only.
   */
  permission: Permission | 'authenticated' | null;
  /**
   * On a record's route whose last path parameter may be the caller's own id (`/v3/users/{user_id}`): a
   * caller without `permission` may still use it on its own record, in the organisations where it holds
   * this one. The handler decides what such a caller may do there (a user's own profile, not their status).
   */
  self?: Permission;
  /**
   * On a record's route whose record may name the caller as its party (an attendance's person): a caller
   * without `permission` reaches the route in the organisations where it holds this one, and the handler
   * decides on the record (a declared transition's `byParty`, a sign-in of oneself): 403 when not the party.
   */
  party?: Permission;
  access: RouteAccess;
  /**
   * Query parameters a route takes when its handler does not parse the query itself. Routes that change
   * things take none unless listed here; GET routes that read no query (status, downloads) list none.
   */
  query?: readonly string[];
  /** Media type of the request body when it is not JSON:API: a form (token endpoint) or text (SNS receiver). */
  bodyType?: 'form' | 'text';
  /**
   * Files of the repository the handler reads at run time (the OpenAPI document, the docs page's
   * scripts): each area function's bundle carries them at the same path (see `routeFile`).
   */
  files?: readonly string[];
  /** For a declared resource's endpoint: the resource type and the operation served on it. */
  declared?:
    | { resource: DeclaredResource; operation: Operation }
    /** A transition of the type's declared state machine, `POST <itemPath>/<verb>`. */
    | { resource: DeclaredResource; operation: 'transition'; verb: string };
  /**
   * What a route that is not a declared endpoint answers with on success, for the OpenAPI document (a
   * declared endpoint's answer follows from its operation).
   */
  answers?: Answer;
  /** Marked deprecated in the OpenAPI document; the handler says so in `Deprecation` and `Link` headers. */
  deprecated?: true;
  /** Error statuses beyond those the route's method, path and schemes imply (a read refused as 409). */
  errors?: readonly number[];
  /**
   * The feature the route belongs to, when its area may be switched off (`defineArea(…, { feature })`):
   * the authorisation middleware answers 403 `FEATURE.001` where the organisation has it switched off.
   */
  feature?: string;
}

/**
 * What a route answers on success; 204, 302 and 303 carry no body (a 302 or 303 names where to go in `Location`: a
 * 302 where the address is the resource's own current place, an image's variant); 202
 * answers the resource whose work was accepted, to be done outside the request.
 */
export interface Answer {
  status: 200 | 201 | 202 | 204 | 302 | 303;
  /** A document whose data is one resource object of this type. */
  resource?: string;
  /** A page of resource objects of these types. */
  collection?: string | readonly string[];
  /** The collection is a feed read with a cursor (`links.next`), not pages of a counted whole. */
  cursor?: true;
  /** A relationship's linkage: an identifier of this type, or null (with `many`, a list of them). */
  relationship?: string;
  /** The relationship is to-many: its linkage is a list, with `links.self` (JSON:API §"Updating To-Many Relationships"). */
  many?: true;
  /** A meta document: alone, or where `resource` is not answered (an SNS confirmation). */
  meta?: true;
  /** Another media type; the handler module's `responseBody` gives its schema. */
  media?: string;
  /**
   * A create that finds the record a repeat of it made (an idempotent producer's key) answers that record
   * 200, with `meta.deduplicated: true`, beside its 201.
   */
  found?: true;
  /** Work too large for the request answers 202 with the job doing it instead (`Content-Location`). */
  job?: true;
  /** A browser the request began for is sent on instead: 303 to where it asked (an SSO callback's `return_to`). */
  redirects?: true;
  /**
   * A client asking for HTML (`Accept: text/html`, not the JSON:API media type: a person's browser) is
   * answered a page instead, 200 `text/html`, whose one form may post to this origin (its policy is
   * `FORM_PAGE_POLICY`, `middlewares/security-headers.ts`): the e-mail unsubscribe link.
   */
  page?: true;
}

/** An entry of an area's route list: a route with the house defaults left out. */
export type RouteEntry = Omit<
  Route,
  'area' | 'tag' | 'auth' | 'access' | 'declared' | 'permission' | 'self' | 'party'
> &
  Partial<Pick<Route, 'tag' | 'auth' | 'access'>> & {
    /** As `Route.permission`; the composition root checks it is a declared `Permission`. */
    permission: PermissionName | 'authenticated' | null;
    self?: PermissionName;
    party?: PermissionName;
  };

export const USER_OR_MACHINE = ['OAuth2', 'Session', 'Cookie'] as const satisfies readonly AuthScheme[];

/** Whether a route answers pages of a collection, which it may read by cursor (feeds have their own). */
export const pagesCollection = (route: Pick<Route, 'method' | 'declared' | 'answers'>): boolean =>
  route.method === 'GET' &&
  (route.declared?.operation === 'list' ||
    (route.answers?.collection !== undefined && !route.answers.cursor));

export const defaultAccess = (method: HttpMethod): RouteAccess =>
  method === 'GET' ? { table: 'read' } : { table: 'write' };
