/**
 * The one way to build a route's Lambda handler: the middy stack every route shares, around a function
 * that takes validated input and returns a JSON:API document (200) or a `Reply`.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Principal } from '../auth/principal';
import type { Scope } from '../data/scope';
import type { QueryParameters } from '../jsonapi/collection-query';
import { type Document, ENTITY_TAG } from '../jsonapi/document';
import type { ApiContext } from './api-context';
import { authorisation, type ReadAhead } from './middlewares/authorisation';
import { compression } from './middlewares/compression';
import { idempotencyKeys, replayFor } from './middlewares/idempotency';
import { jsonApiErrors } from './middlewares/json-api-errors';
import { jsonBody } from './middlewares/json-body';
import { negotiate } from './middlewares/negotiate';
import { pathParameters } from './middlewares/path-parameters';
import { queryParameters as knownQueryParameters } from './middlewares/query-parameters';
import { requestBudget } from './middlewares/request-budget';
import { requestId } from './middlewares/request-id';
import { securityHeaders } from './middlewares/security-headers';
import { stateNotPatched } from './middlewares/state-not-patched';
import { wellFormedInput, wellFormedPathAndHeaders } from './middlewares/well-formed-input';
import type { ParamsOf } from './path-template';
import { matchesIfNoneMatch, parseEntityTags, preconditionOf } from './preconditions';
import { Reply, toResult } from './reply';
import type { Route } from './route';
import { type PathOf, type RouteId, routeById } from './route-table';

export interface ApiRequest<Params = Readonly<Record<string, string>>> {
  route: Route;
  method: string;
  /** The path as requested, e.g. `/v3/orgs`. */
  path: string;
  /** The path parameters, typed from the route's path template when the handler names its route by id. */
  params: Params;
  query: QueryParameters;
  headers: Readonly<Record<string, string | undefined>>;
  /** The request's cookies, `name=value` each, as API Gateway hands them over. */
  cookies: readonly string[];
  /** Parsed JSON for JSON:API routes; the raw text for form and text routes; undefined without a body. */
  body: unknown;
  requestId: string;
  /** Scheme and host the request came in on, for `links.self`. */
  baseUrl: string;
  /** The caller's address as API Gateway saw it (the TCP peer; no header can change it). */
  sourceIp: string;
  principal: Principal | null;
  scope: Scope;
}

export type ApiFunction<Params = Readonly<Record<string, string>>> = (
  request: ApiRequest<Params>,
) => Promise<Document | Reply>;

/** A route named by id has the parameters of its path; a route passed as an object, any. */
type ParamsFor<R extends RouteId | Route> = R extends RouteId
  ? ParamsOf<PathOf<R>>
  : Readonly<Record<string, string>>;

/**
 * Query parameters from the raw query string; repeated names are comma-joined as API Gateway does. The
 * object has no prototype, so `?__proto__=x` and `?constructor=x` are parameters like any other.
 */
const queryParameters = (raw: string): QueryParameters => {
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(raw)) {
    const before = out[name];
    out[name] = before === undefined ? value : `${before},${value}`;
  }
  return out;
};

const rawBody = (event: APIGatewayProxyEventV2): string | undefined =>
  event.body === undefined
    ? undefined
    : event.isBase64Encoded
      ? Buffer.from(event.body, 'base64').toString('utf8')
      : event.body;

/** A GET of one record whose `If-None-Match` names its current tag: 304, the tag and no body (RFC 9110 §15.4.5). */
const notModified = (
  route: Route,
  headers: Readonly<Record<string, string | undefined>>,
  document: Document,
): Reply => {
  const tag = (document as { [ENTITY_TAG]?: string })[ENTITY_TAG];
  const ifNoneMatch = headers['if-none-match'];
  return route.method === 'GET' &&
    tag !== undefined &&
    ifNoneMatch !== undefined &&
    matchesIfNoneMatch(parseEntityTags(ifNoneMatch, 'If-None-Match'), tag)
    ? new Reply(304, undefined, { ETag: tag })
    : new Reply(200, document);
};

/**
 * `readAhead` names records the function will read, so they come with the caller's credentials. Middy
 * runs `after` and `onError` in reverse order of `use`: the security headers go on after the error
 * middleware has rendered any error, and the request id last of all; a large answer is compressed after
 * it is kept for replay, so a replay is encoded for the client that asks again. The caller is known as
 * soon as what authentication reads is well-formed, and its request budget is charged at once, so every
 * later refusal (negotiation, query, body, permission) is charged and carries the budget's headers.
 * Idempotency keys take two places: the key is read before the body is parsed and claimed once the
 * caller is authorised, and the answer is kept after any error is rendered, before the headers every
 * response gets (middlewares/idempotency.ts); a replay is sent here, in place of the function.
 */
export const jsonApiHandler = <R extends RouteId | Route>(
  routeId: R,
  fn: ApiFunction<ParamsFor<R>>,
  readAhead?: ReadAhead,
) => {
  const route: Route = typeof routeId === 'string' ? routeById(routeId) : (routeId as Route);
  const idempotency = idempotencyKeys(route);
  const caller = authorisation(route, readAhead);
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>()
    .use(requestId(route))
    .use(securityHeaders(route))
    .use(compression())
    .use(idempotency.outcome)
    .use(jsonApiErrors())
    .use(pathParameters())
    .use(wellFormedPathAndHeaders())
    .use(caller.authenticate)
    .use(requestBudget())
    .use(negotiate(route))
    .use(knownQueryParameters(route))
    .use(jsonBody(route))
    .use(wellFormedInput(route))
    .use(caller.authorise)
    .use(idempotency.claim)
    .use(stateNotPatched(route))
    .handler(async (event, context) => {
      const replay = replayFor(context);
      if (replay) return replay;
      const headers = event.headers ?? {};
      const params = (event.pathParameters ?? {}) as ParamsFor<R>;
      const precondition = preconditionOf(route, params, headers);
      const reply = await fn({
        route,
        method: event.requestContext.http.method,
        path: event.rawPath,
        // The router (or API Gateway) sets every parameter of the matched path.
        params,
        query: queryParameters(event.rawQueryString ?? ''),
        headers,
        cookies: event.cookies ?? [],
        body: route.bodyType === undefined ? event.body : rawBody(event),
        requestId: context.requestId,
        baseUrl: `${event.headers?.['x-forwarded-proto'] ?? 'https'}://${event.requestContext.domainName}`,
        sourceIp: event.requestContext.http.sourceIp,
        principal: context.principal,
        scope: precondition ? { ...context.scope, precondition } : context.scope,
      });
      return toResult(reply instanceof Reply ? reply : notModified(route, headers, reply));
    });
};
