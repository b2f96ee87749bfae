import { describe, expect, it } from 'vitest';
import { isPermission, permissions } from '#shared/domain/iam/permissions';
import { matchRoute, routes } from '#shared/routes';

describe('route table', () => {
  it('every authenticated route names a permission from the catalogue (or is about the caller itself)', () => {
    for (const route of routes) {
      if (route.auth.length === 0) expect(route.permission, route.id).toBeNull();
      else if (route.permission !== 'authenticated')
        expect(isPermission(route.permission ?? ''), route.id).toBe(true);
    }
  });

  it('every catalogue permission is one some route requires, or a record rule checks (listed here)', () => {
    // comments:moderate: deleting another's comment (shared/resources/comments/comments.ts).
    // feature-configurations:manage: granted by roles, but no route writes feature configurations yet.
    const checkedByRules = ['feature-configurations:manage', 'comments:moderate'];
    const required = new Set<string>(routes.map((route) => route.permission ?? ''));
    expect(permissions.filter((p) => !required.has(p))).toEqual(checkedByRules);
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
});
