/**
 * Tenant isolation, proven over the whole route table: organisation B's administrator calls every route
 * with organisation A's ids (path ids, relationship ids in bodies, filters naming A). No call reads or
 * changes A's data: organisation routes answer 404 (403 where the route is organisation-wide), and
 * organisation-wide collections never show A's records. New routes are covered without editing this file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeatureConfiguration, createTeam } from '../../infra/local/records';
import { type Route, routes } from '../../shared/routes';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let a: Tenant;
let b: Tenant;
let tokenA: string;
let tokenB: string;
/** Ids of A's records by the path parameter that would name them. */
const idsOfA: Record<string, string> = {};

beforeAll(async () => {
  api = await startTestApi();
  [a, b] = await Promise.all([newTenant('Isolation A', 2), newTenant('Isolation B', 2)]);
  [tokenA, tokenB] = await Promise.all([api.token(a.admin), api.token(b.admin)]);
  for (const tenant of [a, b]) {
    await createTeam(tenant.org.id, {
      name: 'Crew',
      description: 'crew',
      memberIds: tenant.people.map((p) => p.id),
    });
    await createFeatureConfiguration(tenant.org.id, {
      name: 'CPP',
      domain: 'cdm',
      component: 'cpp',
      enabled: true,
    });
  }
  const accounts = await api.get(`/v3/orgs/${a.org.id}/iam/service-accounts`, tokenA);
  const account = accounts.body.data[0];
  const grants = await api.get(`/v3/orgs/${a.org.id}/iam/grants`, tokenA);
  Object.assign(idsOfA, {
    org_id: a.org.id,
    service_account_id: account.id,
    key_id: account.attributes.keys[0].id,
    grant_id: grants.body.data[0].id,
  });
});
afterAll(() => api.close());

/** Every id of A's records that a leak would show: its organisation, people, teams, accounts, keys, grants. */
const secretsOfA = async (): Promise<string[]> => {
  const lists = await Promise.all(
    ['people/teams', 'iam/service-accounts', 'iam/grants'].map((p) =>
      api.get(`/v3/orgs/${a.org.id}/${p}`, tokenA),
    ),
  );
  return [
    a.org.id,
    ...a.people.map((p) => p.id),
    ...lists.flatMap((l) => l.body.data.map((r: { id: string }) => r.id)),
  ];
};

/** A's state as its own administrator sees it, to prove nothing changed. */
const snapshotOfA = async () =>
  JSON.stringify(
    await Promise.all(
      ['people/teams', 'iam/service-accounts', 'iam/grants'].map(async (p) => {
        const res = await api.get(`/v3/orgs/${a.org.id}/${p}?limit=100`, tokenA);
        return res.body.data.map((r: { id: string; attributes: object }) => [r.id, r.attributes]);
      }),
    ),
  );

const pathWithIdsOfA = (route: Route) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) => idsOfA[name] ?? idsOfA.org_id ?? '');

/** A body that names A's records wherever a body can name something. */
const bodyNamingA = (route: Route) => ({
  data: {
    type: route.path
      .split('/')
      .filter((s) => !s.startsWith('{'))
      .pop(),
    id: idsOfA.service_account_id,
    attributes: { name: 'hijack', enabled: false },
    relationships: {
      role: { data: { type: 'roles', id: 'admin' } },
      service_account: { data: { type: 'service-accounts', id: idsOfA.service_account_id } },
      members: { data: a.people.map((p) => ({ type: 'users', id: p.id })) },
    },
  },
});

const authenticated = routes.filter((r) => r.auth.length > 0);

describe('organisation B’s administrator, with organisation A’s ids', () => {
  it.each(authenticated.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s reads and changes nothing of A',
    async (_, route) => {
      const before = await snapshotOfA();
      const path = pathWithIdsOfA(route);
      const res = await api.request(route.method, path, {
        token: tokenB,
        ...(route.method === 'POST' || route.method === 'PATCH' ? { body: bodyNamingA(route) } : {}),
      });
      if (route.path.includes('{org_id}')) {
        expect(res.status, res.text).toBe(404);
        expect(res.body.errors[0]).toMatchObject({ status: '404', code: 'NOT_FOUND.001' });
      } else {
        // Organisation-wide routes answer for B's organisations only, whatever filter names A.
        const filtered = await api.get(`${path}?filter[organisation]=${a.org.id}`, tokenB);
        for (const answer of [res, filtered]) {
          if (answer.status < 400)
            for (const id of await secretsOfA())
              expect(answer.text, `${route.id} leaks ${id}`).not.toContain(id);
        }
      }
      expect(await snapshotOfA()).toBe(before);
    },
  );
});

describe('every authenticated route', () => {
  it.each(authenticated.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: no credentials is 401 AUTH.001',
    async (_, route) => {
      const res = await api.request(route.method, pathWithIdsOfA(route));
      expect(res.status).toBe(401);
      expect(res.body.errors[0]).toMatchObject({ code: 'AUTH.001' });
    },
  );

  const withPermission = authenticated.filter((r) => r.permission !== 'authenticated');
  it.each(withPermission.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: a principal with no grants is 403 AUTH.002',
    async (_, route) => {
      const { createServiceAccountClient } = await import('../../infra/local/records');
      const nobody = await api.token(await createServiceAccountClient('no grants', []));
      const res = await api.request(route.method, pathWithIdsOfA(route), { token: nobody });
      expect(res.status).toBe(403);
      expect(res.body.errors[0]).toMatchObject({ code: 'AUTH.002', title: 'Forbidden' });
    },
  );
});
