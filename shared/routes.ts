/**
 * The route table: the one place where routes are listed. The CDK stack creates one function and one
 * API Gateway route per entry, the local adapter mounts the same entries, and the fallback handler
 * derives 404/405 answers from it. Adding an endpoint = a handler file + an entry here.
 */

import type { AuthScheme } from './auth/schemes';
import type { Permission } from './domain/iam/permissions';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route's function may touch; the stack turns this into least-privilege grants. */
export interface RouteAccess {
  table?: 'read' | 'write';
  buckets?: { deviceBackups?: 'read' | 'write'; exports?: 'read' | 'write' };
  /** Sign tokens with the KMS signing key. */
  signing?: true;
}

export interface Route {
  /** Unique, stable identifier: names the Lambda function and the CloudFormation logical ids. */
  id: string;
  method: HttpMethod;
  /** API Gateway path template, e.g. `/v3/orgs/{org_id}/people/teams`. */
  path: string;
  /** Handler module, relative to the repository root; it exports `handler`. */
  handler: string;
  /** Accepted schemes; an empty list means the route is public. */
  auth: readonly AuthScheme[];
  /** Permission checked once by the auth middleware; `null` only for public or self-describing routes. */
  permission: Permission | null;
  access: RouteAccess;
  /** Media type of the request body when it is not JSON:API (token endpoint, SNS receiver). */
  bodyType?: 'form' | 'text';
}

const USER_OR_MACHINE = ['OAuth2', 'Session', 'Cookie'] as const;

export const routes = [
  {
    id: 'getStatus',
    method: 'GET',
    path: '/v3/status',
    handler: 'functions/status/get-status.ts',
    auth: [],
    permission: null,
    access: { table: 'read' },
  },
  {
    id: 'issueToken',
    method: 'POST',
    path: '/oauth2/token',
    handler: 'functions/auth/issue-token.ts',
    auth: [],
    permission: null,
    access: { table: 'read', signing: true },
    bodyType: 'form',
  },
  {
    id: 'getJwks',
    method: 'GET',
    path: '/.well-known/jwks.json',
    handler: 'functions/auth/get-jwks.ts',
    auth: [],
    permission: null,
    access: { signing: true },
  },
  {
    id: 'listOrganisations',
    method: 'GET',
    path: '/v3/orgs',
    handler: 'functions/organisations/list-organisations.ts',
    auth: USER_OR_MACHINE,
    permission: 'organisations:view',
    access: { table: 'read' },
  },
  {
    id: 'listTeams',
    method: 'GET',
    path: '/v3/orgs/{org_id}/people/teams',
    handler: 'functions/people/list-teams.ts',
    auth: USER_OR_MACHINE,
    permission: 'teams:view',
    access: { table: 'read' },
  },
  {
    id: 'createTeam',
    method: 'POST',
    path: '/v3/orgs/{org_id}/people/teams',
    handler: 'functions/people/create-team.ts',
    auth: USER_OR_MACHINE,
    permission: 'teams:manage',
    access: { table: 'write' },
  },
  {
    id: 'listFeatureConfigurations',
    method: 'GET',
    path: '/v3/feature-configurations',
    handler: 'functions/feature-configurations/list-feature-configurations.ts',
    auth: USER_OR_MACHINE,
    permission: 'feature-configurations:view',
    access: { table: 'read' },
  },
] as const satisfies readonly Route[];

export type RouteId = (typeof routes)[number]['id'];

/**
 * The catch-all: API Gateway's `$default` route and the local adapter send every request that matches
 * no entry above here, so unknown paths (404) and wrong methods (405) answer as JSON:API documents.
 */
export const fallbackRoute = {
  id: 'fallback',
  method: 'GET',
  path: '$default',
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

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

const compiled = routes.map((route) => ({
  route: route as Route,
  pattern: new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
}));

/** Finds the route for a method and path; `allowed` lists the methods the path has when none match. */
export const matchRoute = (
  method: string,
  path: string,
): { match: RouteMatch | null; allowed: HttpMethod[] } => {
  const allowed: HttpMethod[] = [];
  for (const { route, pattern } of compiled) {
    const m = pattern.exec(path);
    if (!m) continue;
    if (route.method === method) {
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(m.groups ?? {})) params[k] = decodeURIComponent(v);
      return { match: { route, params }, allowed: [] };
    }
    allowed.push(route.method);
  }
  return { match: null, allowed };
};
