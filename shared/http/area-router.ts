/**
 * An area function's entry: API Gateway sends it every request under the area's path prefixes (greedy
 * routes), and the router picks the route with the same matcher the fallback uses, then calls that
 * route's handler, loaded on first use so a cold start pays only for the route it serves. The entry hands
 * it the table's matcher and fallback (`served-table.ts`, or `shared/routes.ts` where every declaration is
 * needed), so the router imports no area.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { TemplateMatch } from '../route-matcher';
import type { HttpMethod, Route } from './route';

export type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * A route's module: a bespoke handler exports `handler`; the generic endpoints module builds the handler
 * of a declared resource's endpoint from its route.
 */
export type HandlerModule =
  | { handler: LambdaHandler }
  | { handlerFor: (route: Route) => LambdaHandler | Promise<LambdaHandler> };

/** How an entry reaches a route's module: a static `import()` when bundled, a path locally. */
export type HandlerLoader = (route: Route) => Promise<HandlerModule>;

/** What the router reads of the assembled table: its matcher, and the route of paths no route has. */
export interface RoutedTable {
  matchRoute: (method: string, path: string) => { match: TemplateMatch<Route> | null; allowed: HttpMethod[] };
  fallbackRoute: Route;
}

export const areaRouter = (
  area: string,
  { matchRoute, fallbackRoute }: RoutedTable,
  load: HandlerLoader,
): LambdaHandler => {
  const handlers = new Map<Route, Promise<LambdaHandler>>();
  const handlerOf = (route: Route) => {
    let handler = handlers.get(route);
    if (!handler) {
      handler = load(route).then((m) => ('handler' in m ? m.handler : m.handlerFor(route)));
      handlers.set(route, handler);
    }
    return handler;
  };
  return async (event, context) => {
    const { match } = matchRoute(event.requestContext.http.method, event.rawPath);
    // A path of no route of this area (or of none): the fallback answers 404, or 405 with Allow.
    const route = match && match.route.area === area ? match.route : fallbackRoute;
    const routeKey = route === fallbackRoute ? '$default' : `${route.method} ${route.path}`;
    const { pathParameters: _gateway, ...rest } = event;
    const routed: APIGatewayProxyEventV2 = {
      ...rest,
      routeKey,
      ...(match && route !== fallbackRoute && Object.keys(match.params).length > 0
        ? { pathParameters: match.params }
        : {}),
      requestContext: { ...event.requestContext, routeKey },
    };
    return (await handlerOf(route))(routed, context);
  };
};
