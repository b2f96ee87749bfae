/**
 * Issue 15: `links.self` that no route served. Every record a collection lists has a GET of its own, with
 * the collection's permission and scope: it answers what the list shows, and another organisation's
 * caller gets 404. (Plan versions, whose setup is the CDM walk-through, are in cdm.test.ts.)
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFeatureConfiguration,
  createServiceAccountClient,
  createTeam,
} from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let a: Tenant;
let b: Tenant;
let admin: string;
let viewer: string;
let foreign: string;
const ids: Record<string, string> = {};

const one = (type: string, id: string | undefined) => ({ data: { type, id } });
const org = () => `/v3/orgs/${a.org.id}`;
const post = async (path: string, data: object) => {
  const res = await api.request('POST', path, { token: admin, body: { data } });
  expect(res.status, `${path}: ${res.text}`).toBe(201);
  return res.body.data.id as string;
};

beforeAll(async () => {
  api = await startTestApi();
  [a, b] = await Promise.all([newTenant('Single records A'), newTenant('Single records B', 0)]);
  [admin, viewer, foreign] = await Promise.all([api.token(a.admin), api.token(a.viewer), api.token(b.admin)]);
  ids.team = (
    await createTeam(a.org.id, { name: 'Jointers', description: 'x', memberIds: [a.people[0]?.id ?? ''] })
  ).id;
  ids.featureConfiguration = (
    await createFeatureConfiguration(a.org.id, {
      name: 'Permits',
      domain: 'street-works',
      component: 'permits',
      enabled: true,
    })
  ).id;
  ids.ssoProvider = await post('/v3/sso-providers', {
    type: 'sso-providers',
    attributes: { name: 'Entra ID', metadata: 'https://login.a.example/.well-known/openid-configuration' },
    relationships: { organisation: one('organisations', a.org.id) },
  });
  ids.serviceAccount = await post(`${org()}/iam/service-accounts`, {
    type: 'service-accounts',
    attributes: { name: 'SCADA bridge' },
  });
  const key = await api.request('POST', `${org()}/iam/service-accounts/${ids.serviceAccount}/keys`, {
    token: admin,
  });
  ids.key = key.body.data.id;
  ids.rateCode = await post(`${org()}/costs/rate-codes`, {
    type: 'rate-codes',
    attributes: { code: 'LAB-1', name: 'Labour day', category: 'labour' },
  });
  ids.otherRateCode = await post(`${org()}/costs/rate-codes`, {
    type: 'rate-codes',
    attributes: { code: 'MAT-1', name: 'Membrane', category: 'material' },
  });
  ids.rateVersion = await post(`${org()}/costs/rate-codes/${ids.rateCode}/versions`, {
    type: 'rate-code-versions',
    attributes: {
      valid_from: '2026-01-01T00:00:00Z',
      cost: { amount: 80_000, currency: 'GBP' },
      charge: { amount: 100_000, currency: 'GBP' },
    },
  });
  ids.contract = await post(`${org()}/projects/scheme-contracts`, {
    type: 'scheme-contracts',
    attributes: { name: 'North region' },
  });
  ids.costSheet = await post(`${org()}/costs/cost-sheets`, {
    type: 'cost-sheets',
    attributes: { name: 'Region sheet', status: 'quoted' },
    relationships: { scheme_contract: one('scheme-contracts', ids.contract) },
  });
  ids.costLine = await post(`${org()}/costs/cost-sheets/${ids.costSheet}/lines`, {
    type: 'cost-lines',
    attributes: { kind: 'actual', quantity: 2, at: '2026-06-01T00:00:00Z' },
    relationships: { rate_code: one('rate-codes', ids.rateCode) },
  });
  // An appointment (and every other write) becomes an audit entry once its event is delivered (below).
  ids.scheme = await post(`${org()}/projects/schemes`, {
    type: 'schemes',
    attributes: { name: 'Bridge deck' },
    relationships: { contracts: { data: [{ type: 'scheme-contracts', id: ids.contract }] } },
  });
  await post(`${org()}/projects/schemes/${ids.scheme}/appointments`, {
    type: 'appointments',
    attributes: { role: 'client' },
    relationships: { service_account: one('service-accounts', ids.serviceAccount) },
  });
  const folder = await post(`${org()}/folders`, { type: 'folders', attributes: { name: 'Drawings' } });
  ids.document = await post(`/v3/folders/${folder}/documents`, {
    type: 'documents',
    attributes: {
      name: 'deck.pdf',
      content_type: 'application/pdf',
      size: 5,
      checksum: createHash('sha256').update('%PDF-').digest('base64'),
    },
  });
  ids.backupRequest = await post(`${org()}/device-backup-requests`, {
    type: 'device-backup-requests',
    attributes: { device: 'tablet-01' },
    relationships: { user: one('users', a.people[0]?.id) },
  });
  await deliverEvents(a.org.id);
}, 60_000);
afterAll(() => api.close());

/** Each type that had no GET of one record: the collection that lists it and the record to pick. */
const types: [type: string, list: () => string, id: () => string | undefined][] = [
  ['organisations', () => '/v3/orgs', () => a.org.id],
  ['teams', () => `${org()}/people/teams`, () => ids.team],
  ['feature-configurations', () => '/v3/feature-configurations', () => ids.featureConfiguration],
  ['sso-providers', () => '/v3/sso-providers', () => ids.ssoProvider],
  ['service-account-keys', () => `${org()}/iam/service-accounts/${ids.serviceAccount}/keys`, () => ids.key],
  ['rate-codes', () => `${org()}/costs/rate-codes`, () => ids.rateCode],
  ['rate-code-versions', () => `${org()}/costs/rate-codes/${ids.rateCode}/versions`, () => ids.rateVersion],
  ['cost-sheets', () => `${org()}/costs/cost-sheets`, () => ids.costSheet],
  ['cost-lines', () => `${org()}/costs/cost-lines`, () => ids.costLine],
  ['audit-events', () => `${org()}/audit-events?filter[action]=appointment.created`, () => undefined],
  ['document-versions', () => `/v3/documents/${ids.document}/versions`, () => undefined],
  ['device-backup-requests', () => `${org()}/device-backup-requests`, () => ids.backupRequest],
];

describe('every record a collection lists can be read alone (issue 15)', () => {
  it.each(types)('%s: GET of its links.self answers the record as listed', async (type, list, id) => {
    const listed = await api.get(list(), admin);
    expect(listed.status, listed.text).toBe(200);
    const wanted = id();
    const record = listed.body.data.find((r: { id: string }) => wanted === undefined || r.id === wanted);
    expect(record?.type).toBe(type);
    const self = new URL(record.links.self);
    const read = await api.get(self.pathname + self.search, admin);
    expect(read.status, read.text).toBe(200);
    // A read of one record adds what the caller may do next (issue 41); the rest is the record as listed.
    const { allowed_transitions: _moves, ...meta } = read.body.data.meta ?? {};
    expect({ ...read.body.data, meta }).toEqual(record);
  });

  it.each(types)('%s: another organisation’s administrator gets 404 for it', async (_type, list, id) => {
    const listed = await api.get(list(), admin);
    const wanted = id();
    const record = listed.body.data.find((r: { id: string }) => wanted === undefined || r.id === wanted);
    const self = new URL(record.links.self);
    // Served to its own organisation, so the 404 below is the scope's, not a missing route's.
    expect((await api.get(self.pathname, admin)).status).toBe(200);
    const read = await api.get(self.pathname, foreign);
    expect(read.status, read.text).toBe(404);
    expect(read.body.errors[0].code).toBe('NOT_FOUND.001');
  });

  it('a team reads with include=members; its members are users with a page of their own', async () => {
    const team = await api.get(`${org()}/people/teams/${ids.team}?include=members`, viewer);
    expect(team.status, team.text).toBe(200);
    expect(team.body.included.map((u: { id: string }) => u.id)).toEqual([a.people[0]?.id]);
    expect(team.body.included[0].links.self).toBe(`${api.url}/v3/users/${a.people[0]?.id}`);
  });

  it('GET /v3/users/{user_id} needs users:view in the user’s organisation (viewer: 200; teams:view alone: 403; elsewhere: 404)', async () => {
    const path = `/v3/users/${a.people[0]?.id}`;
    const user = await api.get(path, viewer);
    expect(user.status, user.text).toBe(200);
    expect(user.body.data).toMatchObject({ type: 'users', id: a.people[0]?.id, meta: { grants: [] } });
    const role = await api.request('POST', `${org()}/iam/roles`, {
      token: admin,
      body: { data: { type: 'roles', attributes: { name: 'Teams only', permissions: ['teams:view'] } } },
    });
    expect(role.status, role.text).toBe(201);
    const teamsOnly = await api.token(
      await createServiceAccountClient('teams only', [{ org_id: a.org.id, role: role.body.data.id }]),
    );
    expect((await api.get(path, teamsOnly)).status).toBe(403);
    expect((await api.get(path, foreign)).status).toBe(404);
  });

  it('a key reads with its secret masked; an id that is not a key of that account is 404', async () => {
    const path = `${org()}/iam/service-accounts/${ids.serviceAccount}/keys`;
    const key = await api.get(`${path}/${ids.key}`, viewer);
    expect(key.status, key.text).toBe(200);
    expect(key.body.data.attributes.client_secret).toMatch(/^\*+.{4}$/);
    expect(key.body.data.meta.secret_shown_once).toBe(false);
    expect((await api.get(`${path}/${ids.rateCode}`, admin)).status).toBe(404);
  });

  it('a rate version is read under its own rate code only (another code of the organisation: 404)', async () => {
    const path = (code: string | undefined) =>
      `${org()}/costs/rate-codes/${code}/versions/${ids.rateVersion}`;
    expect((await api.get(path(ids.rateCode), viewer)).status).toBe(200);
    expect((await api.get(path(ids.otherRateCode), admin)).status).toBe(404);
  });

  it('an SSO provider is read with sso-providers:manage, as it is listed (a viewer: 403)', async () => {
    expect((await api.get(`/v3/sso-providers/${ids.ssoProvider}`, viewer)).status).toBe(403);
  });

  it('creates answer 201 with a Location equal to links.self, where the record reads (cost sheets and lines included)', async () => {
    const res = await api.request('POST', `${org()}/costs/cost-sheets/${ids.costSheet}/lines`, {
      token: admin,
      body: {
        data: {
          type: 'cost-lines',
          attributes: { kind: 'estimate', quantity: 1, at: '2026-06-01T00:00:00Z' },
          relationships: { rate_code: one('rate-codes', ids.rateCode) },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toBe(res.body.data.links.self);
    const location = new URL(res.headers.get('location') ?? '');
    expect((await api.get(location.pathname, admin)).body.data.id).toBe(res.body.data.id);
  });
});
