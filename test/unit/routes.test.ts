import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPermission, permissions } from '#shared/domain/permissions';
import { type HttpMethod, matchRoute, type Route, routes } from '#shared/routes';

/** The matcher the route table had before: one regular expression per template. */
const patterns = (routes as readonly Route[]).map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
}));
const byRegularExpressions = (method: string, path: string) => {
  const allowed: HttpMethod[] = [];
  for (const { route, pattern } of patterns) {
    const m = pattern.exec(path);
    if (!m) continue;
    if (route.method === method) {
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(m.groups ?? {})) {
        try {
          params[k] = decodeURIComponent(v);
        } catch {
          params[k] = v;
        }
      }
      return { match: { route, params }, allowed: [] };
    }
    allowed.push(route.method);
  }
  return { match: null, allowed };
};

describe('route table', () => {
  it('every authenticated route names a permission from the catalogue (or is about the caller itself)', () => {
    for (const route of routes) {
      if (route.auth.length === 0) expect(route.permission, route.id).toBeNull();
      else if (route.permission !== 'authenticated')
        expect(isPermission(route.permission ?? ''), route.id).toBe(true);
    }
  });

  it('every catalogue permission is one some route requires, or a record rule checks (listed here)', () => {
    // comments:moderate: deleting another's comment (functions/comments/comments.ts).
    // users:self: a route's `self` permission (PATCH /v3/users/{user_id} on the caller's own record).
    // site-attendances:self: a route's `party` permission (sign-in and sign-out of oneself).
    // actions:self: a route's `party` permission (an action's parties read it and make the assignee's moves).
    // site-attendances:override: a sign-in that overrides the gate (resources/site-attendances/sign-in.ts).
    const checkedByRules = ['site-attendances:override', 'comments:moderate'];
    const required = new Set<string>(
      (routes as readonly Route[]).flatMap((route) => [
        route.permission ?? '',
        route.self ?? '',
        route.party ?? '',
      ]),
    );
    expect(permissions().filter((p) => !required.has(p))).toEqual(checkedByRules);
  });

  it('route ids and method+path pairs are unique', () => {
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
    expect(new Set(routes.map((r) => `${r.method} ${r.path}`)).size).toBe(routes.length);
  });

  it('matches path templates and decodes parameters', () => {
    const { match } = matchRoute('GET', '/v3/orgs/0190a1b2-0000-7000-8000-000000000001/people/teams');
    expect(match?.route.id).toBe('listTeams');
    expect(match?.params).toEqual({ org_id: '0190a1b2-0000-7000-8000-000000000001' });
  });

  it('a known path under another method reports the methods it has (for 405)', () => {
    expect(matchRoute('DELETE', '/v3/orgs')).toEqual({ match: null, allowed: ['GET'] });
    expect(matchRoute('GET', '/v3/nowhere')).toEqual({ match: null, allowed: [] });
  });

  it('matches every path and method exactly as the regular expressions it replaced (same route, parameters, allowed methods)', () => {
    const segment = fc.oneof(
      fc.constantFrom('', '.', '..', '%', '%zz', '%2F', 'v3', 'orgs', 'status', 'jwks.json', 'jwksxjson'),
      fc.string({ unit: 'grapheme', maxLength: 8 }).map((s) => s.replaceAll('/', '')),
      fc.uuid(),
    );
    // Each route's own template with its parameters filled (or any segment replaced), and free paths.
    const fromTemplate = fc
      .tuple(fc.constantFrom(...routes.map((r) => r.path)), fc.array(segment, { minLength: 8, maxLength: 8 }))
      .chain(([path, fills]) =>
        fc.constantFrom(
          path
            .split('/')
            .map((s, i) => (s.startsWith('{') ? (fills[i % 8] ?? '') : s))
            .join('/'),
          path
            .split('/')
            .map((s, i) => (i === 2 ? (fills[i] ?? '') : s))
            .join('/'),
          `${path}/`,
          path.replace(/\{\w+\}/g, 'x').slice(1),
        ),
      );
    const anyPath = fc.array(segment, { maxLength: 7 }).map((parts) => `/${parts.join('/')}`);
    fc.assert(
      fc.property(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'),
        fc.oneof(fromTemplate, anyPath),
        (method, path) => {
          expect(matchRoute(method, path)).toEqual(byRegularExpressions(method, path));
        },
      ),
      { seed: 20261123, numRuns: 5000 },
    );
  });
});
