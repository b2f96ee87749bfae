/**
 * Checks the caller once per request, against the route table's schemes and permission, and hands the
 * handler the data-layer scope that follows from it, with any records the handler reads ahead.
 */

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { actorOf, authenticate, authorise, type Principal } from '../../auth/principal';
import { passesSwitch, switchedOffIn, unknownSwitchKeys } from '../../data/feature-switches';
import { directoryKey, directoryOrg, learnLocation, learntLocation } from '../../data/id-directory';
import { settingsKey } from '../../data/organisation-settings';
import { readTogether } from '../../data/repository';
import { type Scope, scopeOf } from '../../data/scope';
import { type ItemKey, keyId } from '../../data/stored-resource';
import type { EffectivePermissions } from '../../domain/effective-permissions';
import { namesPageSize } from '../../jsonapi/collection-query';
import { FeatureSwitchedOffError, NotFoundError } from '../../jsonapi/errors';
import type { ApiMiddleware } from '../api-context';
import { parameterNames } from '../path-template';
import type { DeclaredResource, Route } from '../route';
import { pagesCollection } from '../route';

/**
 * The records a handler will read, named before the caller is authorised: from the path, and the
 * organisations they may lie in (the path's, or where the caller held the route's permission when this
 * container last looked; none when it has not).
 */
export type ReadAhead = (
  params: Readonly<Record<string, string | undefined>>,
  orgIds: readonly string[],
) => ItemKey[];

/** Where the caller may read on this route, as far as this container last knew (a hint for reading ahead). */
const likelyOrgs = (route: Route, known: EffectivePermissions | undefined, pathOrgId: string | undefined) => {
  if (pathOrgId !== undefined) return [pathOrgId];
  const { permission } = route;
  return [...(known ?? new Map()).entries()]
    .filter(
      ([, granted]) =>
        permission === 'authenticated' ||
        permission === null ||
        granted.has(permission) ||
        (route.self !== undefined && granted.has(route.self)) ||
        (route.party !== undefined && granted.has(route.party)),
    )
    .map(([org]) => org);
};

/** The path's last parameter: the record a record's route acts on. */
const recordIdOf = (route: Route, params: Readonly<Record<string, string | undefined>>) =>
  params[parameterNames(route.path).at(-1) ?? ''];

/** The organisations the caller reaches on this route. */
const orgsOf = (
  route: Route,
  principal: Principal,
  params: Readonly<Record<string, string | undefined>>,
): readonly string[] => {
  const pathOrgId = params.org_id;
  // On its own record, a caller holding the route's `self` permission where it lacks the route's own.
  if (route.self && recordIdOf(route, params) === principal.id) {
    const { self, permission } = route;
    const reached = [...principal.permissions].filter(
      ([org, granted]) =>
        (pathOrgId === undefined || org === pathOrgId) &&
        (granted.has(self) ||
          (permission !== 'authenticated' && permission !== null && granted.has(permission))),
    );
    if (reached.length > 0) return reached.map(([org]) => org);
  }
  // A record's party (`route.party`): reached where it holds that permission or the route's; the handler
  // decides on the record whether the caller is its party.
  const { party, permission } = route;
  if (party && permission !== 'authenticated' && permission !== null) {
    const reached = [...principal.permissions].filter(
      ([org, granted]) =>
        (pathOrgId === undefined || org === pathOrgId) && (granted.has(party) || granted.has(permission)),
    );
    if (reached.length > 0) return reached.map(([org]) => org);
  }
  if (route.permission !== 'authenticated' && route.permission !== null)
    return authorise(principal, route.permission, pathOrgId).orgIds;
  // No permission of its own (whoami, exports): any organisation the caller holds grants in.
  if (pathOrgId !== undefined && !principal.permissions.has(pathOrgId)) throw new NotFoundError();
  return [...principal.permissions.keys()];
};

/**
 * What a declared resource's endpoint on one record reads first: the record in each organisation it may
 * lie in, and for a GET the records its answer derives from (`derivedKeys`); a PATCH or DELETE then
 * writes. The id is the path's last parameter.
 */
export const declaredReadAhead = (route: Route): ReadAhead | undefined => {
  const operation = route.declared?.operation;
  if (
    !route.declared ||
    (operation !== 'get' && operation !== 'update' && operation !== 'delete' && operation !== 'transition')
  ) {
    return undefined;
  }
  const { resource } = route.declared;
  return recordAhead(resource, parameterNames(route.path).at(-1) ?? '', operation === 'get');
};

/**
 * The record a route acts on, named by the path parameter `idParam`, in each organisation it may lie in
 * (and, with `derived`, what its answer derives from): a declared endpoint's, or a bespoke route's on one
 * record (an award's approval, an attendance's sign-out).
 */
export const recordAhead =
  (resource: Pick<DeclaredResource, 'keyOf' | 'derivedKeys'>, idParam: string, derived = false): ReadAhead =>
  (params, orgIds) => {
    const id = params[idParam];
    const more = derived ? resource.derivedKeys : undefined;
    return id ? orgIds.flatMap((org) => [resource.keyOf(org, id), ...(more?.(org, id) ?? [])]) : [];
  };

/**
 * What is read with the credentials for the record the path names (its last parameter): the route's
 * read-ahead in the one organisation the caller is likely to read it in (the path's, the caller's only
 * one, or where this container last found that record among the caller's); otherwise, when the path names
 * no organisation, the record's id directory entry, one key whatever the number of organisations
 * (`data/id-directory.ts`), and the record once the scope is known (`readWhereLocated`).
 */
const recordOrDirectoryAhead = (
  route: Route,
  params: Readonly<Record<string, string | undefined>>,
  orgs: readonly string[],
  readAhead: ReadAhead | undefined,
): ItemKey[] => {
  const id = recordIdOf(route, params);
  const learnt = id === undefined ? undefined : learntLocation(id);
  if (orgs.length === 1) return readAhead?.(params, orgs) ?? [];
  if (readAhead && learnt !== undefined && orgs.includes(learnt)) return readAhead(params, [learnt]);
  return params.org_id === undefined && id ? [directoryKey(id)] : [];
};

/**
 * Once the scope is known: the records the route reads ahead, in the one organisation the directory
 * entry read with the credentials names, in one BatchGetItem, when that organisation is in the scope (an
 * entry outside it reads nothing more, as an unknown id). Held for the handler's reads as if read ahead.
 */
const readWhereLocated = async (
  scope: Scope,
  route: Route,
  params: Readonly<Record<string, string | undefined>>,
  readAhead: ReadAhead | undefined,
) => {
  const id = recordIdOf(route, params);
  const orgId = id === undefined ? undefined : directoryOrg(scope, id);
  if (id === undefined || orgId === undefined) return;
  learnLocation(id, orgId);
  if (!readAhead) return;
  const keys = readAhead(params, [orgId]).filter((key) => !scope.readAhead?.has(keyId(key)));
  if (keys.length === 0) return;
  for (const [key, item] of await readTogether(keys)) scope.readAhead?.set(key, item);
};

/**
 * A page of a collection read within one organisation that names no page size is the organisation's
 * default size (`engine/collection.ts`): its settings are read with the credentials, in the same round
 * trip.
 */
const pageSizeAhead = (route: Route, event: APIGatewayProxyEventV2, orgs: readonly string[]): ItemKey[] => {
  const [orgId, ...others] = orgs;
  const query = Object.fromEntries(new URLSearchParams(event.rawQueryString ?? ''));
  return pagesCollection(route) && orgId && others.length === 0 && !namesPageSize(query)
    ? [settingsKey(orgId)]
    : [];
};

/**
 * A switchable area's route reads the organisations' switches this container does not remember with the
 * credentials, in the same round trip; not those of organisations where the caller, as this container
 * last knew, passes the switch anyway (`passesSwitch`): `switchedOn` skips them, so an administrator in
 * 100 organisations would otherwise read 100 switches on every request. Should the caller no longer hold
 * that permission, `switchedOn` reads the switch itself.
 */
export const featureAhead = (
  route: Route,
  orgs: readonly string[],
  known: EffectivePermissions | undefined,
): ItemKey[] => {
  const { feature } = route;
  if (!feature) return [];
  return unknownSwitchKeys(
    feature,
    orgs.filter((org) => !passesSwitch(route.method, known?.get(org))),
  );
};

/**
 * The organisations of `orgs` where the route's feature is on, or where the caller reads and may switch
 * it back on (an administrator: `FEATURE_ADMINISTRATION`). A request left with none is refused with 403
 * `FEATURE.001`; a collection across organisations keeps those where it is on. Switches the credentials'
 * round trip did not read (this container did not yet know the caller's organisations) take one more.
 */
const switchedOn = async (
  route: Route,
  principal: Principal,
  orgs: readonly string[],
  read: Map<string, unknown> | undefined,
): Promise<readonly string[]> => {
  const { feature } = route;
  if (!feature || orgs.length === 0) return orgs;
  const off = await switchedOffIn(
    feature,
    orgs.filter((org) => !passesSwitch(route.method, principal.permissions.get(org))),
    read,
  );
  const on = orgs.filter((org) => !off.has(org));
  if (on.length === 0) throw new FeatureSwitchedOffError(feature);
  return on;
};

type Request = Parameters<NonNullable<ApiMiddleware['before']>>[0];

/**
 * Two middlewares from one factory, because the request budget is charged between them (json-api-
 * handler.ts): `authenticate` resolves the credential (401 without a valid one) and reads ahead with it;
 * `authorise` then checks the route's permission and the path's organisation (403, 404) and hands the
 * handler its scope, with the records read ahead. So a refused request is charged to its client like any
 * other, and carries the budget's headers.
 */
export const authorisation = (
  route: Route,
  readAhead = declaredReadAhead(route),
): { authenticate: ApiMiddleware; authorise: ApiMiddleware } => {
  const readAheadOf = new WeakMap<Request, Map<string, unknown>>();
  return {
    authenticate: {
      before: async (request) => {
        const { event, context } = request;
        context.principal = null;
        context.scope = scopeOf([]);
        if (route.auth.length === 0) return;
        const params = event.pathParameters ?? {};
        const { principal, readAhead: read } = await authenticate(
          event.headers ?? {},
          event.cookies,
          route.auth,
          (known) => {
            const orgs = likelyOrgs(route, known, params.org_id);
            return [
              ...recordOrDirectoryAhead(route, params, orgs, readAhead),
              ...pageSizeAhead(route, event, orgs),
              ...featureAhead(route, orgs, known),
            ];
          },
        );
        context.principal = principal;
        readAheadOf.set(request, read);
      },
    },
    authorise: {
      before: async (request) => {
        const { event, context } = request;
        if (!context.principal) return;
        const params = event.pathParameters ?? {};
        const read = readAheadOf.get(request);
        const scope = scopeOf(
          await switchedOn(route, context.principal, orgsOf(route, context.principal, params), read),
          read,
          actorOf(context.principal),
        );
        await readWhereLocated(scope, route, params, readAhead);
        context.scope = scope;
      },
    },
  };
};
