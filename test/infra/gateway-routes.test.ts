/**
 * The gateway routes the stack deploys (infra/gateway-routes.ts) send every route of the route table to
 * its own area's function, under API Gateway's precedence (a full match, then the longest greedy prefix),
 * with no two routes tied for a request.
 */
import { describe, expect, it } from 'vitest';
import { type Route, routes } from '#shared/routes';
import { type GatewayRoute, gatewayMatch, gatewayRoutes } from '../../infra/gateway-routes';

const gateway = gatewayRoutes(routes);
/** A request path for a route: each parameter filled with a value no literal segment has. */
const sample = (route: Route) => route.path.replace(/\{\w+\}/g, '0190a0a0-0000-7000-8000-000000000001');
const segments = (path: string) => path.split('/').filter(Boolean);
/** Every greedy gateway route that takes the path, with its prefix length. */
const greedyCandidates = (path: string): GatewayRoute[] =>
  gateway.filter((g) => {
    const prefix = segments(g.path);
    if (prefix.pop() !== '{proxy+}') return false;
    const request = segments(path);
    return request.length > prefix.length && prefix.every((s, i) => s.startsWith('{') || s === request[i]);
  });

describe('gateway routes', () => {
  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s reaches its own area’s function',
    (_, route) => {
      expect(gatewayMatch(gateway, route.method, sample(route))?.area).toBe(route.area);
    },
  );

  it('no request is tied between two greedy routes of the same prefix length', () => {
    for (const route of routes) {
      const lengths = greedyCandidates(sample(route)).map((g) => segments(g.path).length);
      const longest = Math.max(...lengths);
      expect(lengths.filter((n) => n === longest).length, route.path).toBeLessThanOrEqual(1);
    }
  });

  it('paths outside every area go to $default', () => {
    for (const path of ['/', '/v2/orgs', '/v3', '/v3/nothing-here', '/oauth2/other'])
      expect(gatewayMatch(gateway, 'GET', path), path).toBeNull();
  });

  it('a greedy route does not take its own prefix: that needs a route of its own', () => {
    const greedy = gateway.find((g) => g.path === '/v3/orgs/{org_id}/audit-events/{proxy+}');
    expect(greedy).toBeDefined();
    expect(gatewayMatch(gateway, 'GET', '/v3/orgs/x/audit-events')?.path).toBe(
      '/v3/orgs/{org_id}/audit-events',
    );
  });

  it('is a few routes per area, not one per route', () => {
    expect(gateway.length).toBeLessThan(routes.length / 3);
  });
});
