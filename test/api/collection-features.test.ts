/**
 * The spec's "Collection query features": every collection answers
 * `meta.features.params.<filter|include|sort>.options`, the names the endpoint accepts, and the include
 * options again at `meta.features.include.options` (the shape the spec's cost-rollups and sso-providers
 * sections name), equal to `params.include.options`. Walked over every
 * collection route of the route table (a GET whose handler reads its own query and whose path ends in a
 * literal segment), against real parent records; each listed include and sort is then sent back and
 * must be accepted.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Route, routes } from '#shared/routes';
import { runCdmScenario } from '../scenarios/cdm';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
/** A real record for every path parameter a collection route names. */
const params: Record<string, string> = {};
/** Query parameters a route requires before it answers at all: a value for each, that finds something. */
const required: Record<string, string> = {};

interface DocumentedParameter {
  name: string;
  in: string;
  required?: boolean;
  schema: { minLength?: number };
}
/** The OpenAPI document (docs/openapi.json, proven current by specifications.test.ts). */
const documented = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../docs/openapi.json'), 'utf8'),
) as { paths: Record<string, Record<string, { parameters: DocumentedParameter[] }>> };
const requiredInDocument = (route: Route) =>
  (documented.paths[route.path]?.get?.parameters ?? []).filter((p) => p.in === 'query' && p.required);

/** GET routes answering a collection (a declared list, or a bespoke route whose answer is one). */
const collectionRoutes = routes.filter(
  (r: Route) =>
    r.method === 'GET' &&
    r.query === undefined &&
    (r.declared ? r.declared.operation === 'list' : r.answers?.collection !== undefined),
);

const create = async (path: string, data: object) => {
  const res = await api.request('POST', path, { token, body: { data } });
  expect(res.status, `${path}: ${res.text}`).toBe(201);
  return res.body.data.id as string;
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Features Org', 1);
  token = await api.token(tenant.admin);
  const org = `/v3/orgs/${tenant.org.id}`;
  params.org_id = tenant.org.id;
  const cdm = await runCdmScenario(api, tenant.org.id, token);
  params.scheme_id = cdm.schemeId;
  params.pre_construction_information_id = cdm.packId;
  params.construction_phase_plan_id = cdm.planId;
  params.service_account_id = await create(`${org}/iam/service-accounts`, {
    type: 'service-accounts',
    attributes: { name: 'Features bridge' },
  });
  params.vehicle_id = await create(`${org}/assets/vehicles`, {
    type: 'vehicles',
    attributes: { registration: 'FE01 ATS' },
  });
  params.rate_code_id = await create(`${org}/costs/rate-codes`, {
    type: 'rate-codes',
    attributes: { code: 'FE-1', name: 'Features', category: 'misc' },
  });
  params.agent_id = await create(`${org}/agents`, {
    type: 'agents',
    attributes: { name: 'Adviser', persona: 'You review records.', enabled: true },
  });
  params.folder_id = await create(`${org}/folders`, { type: 'folders', attributes: { name: 'Drawings' } });
  params.document_id = await create(`/v3/folders/${params.folder_id}/documents`, {
    type: 'documents',
    attributes: {
      name: 'plan.pdf',
      content_type: 'application/pdf',
      size: 5,
      checksum: createHash('sha256').update('%PDF-').digest('base64'),
    },
  });
  params.webhook_subscription_id = await create(`${org}/webhook-subscriptions`, {
    type: 'webhook-subscriptions',
    attributes: { url: 'https://hooks.example.com/in', event_types: ['vehicle.created'] },
  });
  const qualification = await create(`${org}/qualifications/types`, {
    type: 'qualification-types',
    attributes: { kind: 'training', name: 'Manual handling', has_expiry: false },
  });
  params.qualification_specification_id = await create(`${org}/qualifications/specifications`, {
    type: 'qualification-specifications',
    attributes: { name: 'Labourer', rule: { qualification_type: qualification } },
  });
  required.evaluateQualificationSpecification = `filter[person]=${tenant.people[0]?.id}`;
  required.searchProjects = 'filter[prefix]=Sc';
  required.listComments = `filter[subject_id]=${params.vehicle_id}`;
}, 120_000);
afterAll(() => api.close());

const pathOf = (route: Route) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const id = params[name];
    if (!id) throw new Error(`${route.id}: no record for {${name}}; create one in beforeAll`);
    return id;
  });
const get = (route: Route, query: string[] = []) => {
  const all = [required[route.id], ...query].filter(Boolean);
  return api.get(`${pathOf(route)}${all.length > 0 ? `?${all.join('&')}` : ''}`, token);
};

describe('meta.features on every collection route', () => {
  it('the walk covers the collection routes of the route table', () => {
    expect(collectionRoutes.length).toBeGreaterThanOrEqual(58);
  });

  it.each(collectionRoutes.map((r) => [r.id, r] as const))(
    '%s lists its filter, include and sort options at meta.features.params, its include options at meta.features.include too, and accepts each',
    async (_, route) => {
      const res = await get(route);
      expect(res.status, res.text).toBe(200);
      expect(Array.isArray(res.body.data)).toBe(true);
      const params = res.body.meta?.features?.params;
      for (const name of ['filter', 'include', 'sort']) {
        expect(Array.isArray(params?.[name]?.options), `meta.features.params.${name}.options`).toBe(true);
      }
      expect(res.body.meta.features).toEqual({ params: expect.any(Object), include: expect.any(Object) });
      expect(res.body.meta.features.include, 'meta.features.include = meta.features.params.include').toEqual(
        params.include,
      );
      // The include parser accepts every prefix of a declared path, so the list names each prefix too.
      const includes = params.include.options as string[];
      for (const include of includes) {
        const segments = include.split('.');
        for (let i = 1; i < segments.length; i++) {
          expect(includes, `prefix of ${include}`).toContain(segments.slice(0, i).join('.'));
        }
      }
      for (const include of includes) {
        const answer = await get(route, [`include=${include}`]);
        expect(answer.status, `include=${include}: ${answer.text}`).toBe(200);
      }
      for (const sort of params.sort.options as string[]) {
        for (const value of [sort, `-${sort}`]) {
          const answer = await get(route, [`sort=${value}`]);
          expect(answer.status, `sort=${value}: ${answer.text}`).toBe(200);
        }
      }
    },
  );

  it.each(collectionRoutes.map((r) => [r.id, r] as const))(
    '%s: the query parameters the document marks required are those it refuses to answer without (400 naming each)',
    async (_, route) => {
      const names = requiredInDocument(route).map((p) => p.name);
      const values = new URLSearchParams(required[route.id] ?? '');
      // What this walk must send to be answered is what the document says is required.
      expect([...values.keys()].sort(), 'required in the document').toEqual([...names].sort());
      const bare = await api.get(pathOf(route), token);
      if (names.length === 0) {
        expect(bare.status, bare.text).toBe(200);
        return;
      }
      expect(bare.status, bare.text).toBe(400);
      expect(names).toContain(bare.body.errors[0].source.parameter);
      for (const { name, schema } of requiredInDocument(route)) {
        const others = [...values].filter(([other]) => other !== name);
        const without = await api.get(`${pathOf(route)}?${new URLSearchParams(others)}`, token);
        expect(without.status, `without ${name}: ${without.text}`).toBe(400);
        expect(without.body.errors[0].source.parameter).toBe(name);
        if ((schema.minLength ?? 0) > 1) {
          const short = (values.get(name) ?? '').slice(0, (schema.minLength ?? 1) - 1);
          const query = new URLSearchParams([...others, [name, short]]);
          const shorter = await api.get(`${pathOf(route)}?${query}`, token);
          expect(shorter.status, `${name}=${short}: ${shorter.text}`).toBe(400);
          expect(shorter.body.errors[0].source.parameter).toBe(name);
        }
      }
    },
  );

  it('comments, the project search and an evaluation are documented with their required filters', () => {
    const requiredOf = (id: string) =>
      requiredInDocument(collectionRoutes.find((r) => r.id === id) as Route).map((p) => [p.name, p.schema]);
    expect(requiredOf('listComments')).toEqual([['filter[subject_id]', expect.any(Object)]]);
    expect(requiredOf('searchProjects')).toEqual([
      ['filter[prefix]', expect.objectContaining({ type: 'string', minLength: 2 })],
    ]);
    expect(requiredOf('evaluateQualificationSpecification')).toEqual([
      ['filter[person]', expect.objectContaining({ type: 'string' })],
    ]);
  });

  it('equipment lists every include the parser accepts, the prefixes model and vehicle among them', async () => {
    const res = await api.get(`/v3/orgs/${tenant.org.id}/assets/equipment`, token);
    const { filter, include, sort } = res.body.meta.features.params;
    // The spec's own examples for the equipment collection.
    expect(include.options).toEqual(
      expect.arrayContaining([
        'model',
        'model.manufacturer',
        'model.categories',
        'vehicle',
        'vehicle.equipment',
      ]),
    );
    expect(filter.options).toEqual(
      expect.arrayContaining(['serial', 'status', 'created_at.since', 'created_at.until']),
    );
    expect(sort.options).toEqual(expect.arrayContaining(['serial', 'created_at', 'modified_at']));
    // Listed once each, and nothing the parser refuses.
    expect(new Set(include.options).size).toBe(include.options.length);
    const refused = await api.get(`/v3/orgs/${tenant.org.id}/assets/equipment?include=model.nothing`, token);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].detail).toContain(include.options.join(', '));
  });

  it('cost roll-ups and SSO providers serve meta.features.include.options, as their own sections say, beside params', async () => {
    const rollUps = await api.get('/v3/cost-rollups', token);
    expect(rollUps.status, rollUps.text).toBe(200);
    expect(rollUps.body.meta.features).toEqual({
      params: {
        filter: { options: ['organisation', 'cost_centre', 'cost_centre_type', 'depth'] },
        include: { options: [] },
        sort: { options: [] },
      },
      include: { options: [] },
    });
    const providers = await api.get('/v3/sso-providers', token);
    expect(providers.status, providers.text).toBe(200);
    expect(providers.body.meta.features.include.options).toEqual(
      providers.body.meta.features.params.include.options,
    );
  });
});
