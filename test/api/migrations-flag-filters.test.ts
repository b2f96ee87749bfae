/**
 * The flag filter index migrations (issue 42, item 1): service accounts and agents written before
 * `filter[enabled]`, and webhook subscriptions before `filter[enabled]` and `filter[status]`, were answered
 * from indexes, device backup requests before `filter[device]` and `filter[status]` were, and location
 * imports before `filter[status]` was, lack the entries and the counts, so the filters never found them; after the migrations they
 * are found, ordered and counted as records written today are, read back as they did, and a rerun changes
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from '#functions/agents/definitions';
import { deviceBackupRequests } from '#functions/device-backups/definitions';
import { serviceAccounts } from '#functions/iam/definitions';
import { locationImports } from '#functions/places/definitions';
import { outcomeOf } from '#functions/places/location-imports/writes';
import { webhookSubscriptions } from '#functions/webhooks/definitions';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
let oldAccounts: StoredResource[];
let oldAgents: StoredResource[];
let oldSubscriptions: StoredResource[];
let oldRequests: StoredResource[];
let oldImports: StoredResource[];

/** As the creates wrote them before the filters were indexed: no entry on either local index, no counts. */
const beforeFilterIndex = async (record: StoredResource) => {
  const { lsi1: _, lsi2: __, counted: ___, ...old } = record;
  // A service account's and an agent's `lsi1` is their name sort's, which they had.
  const kept = [webhookSubscriptions, deviceBackupRequests, locationImports].some(
    (d) => d.type === record.type,
  )
    ? old
    : { ...old, lsi1: record.lsi1 };
  await commit(scopeOf([record.org_id]), [{ create: kept as StoredResource }]);
  return kept as StoredResource;
};

const account = (orgId: string, name: string, enabled: boolean) =>
  newRecord(serviceAccounts, orgId, {
    attributes: {
      name,
      description: '',
      email: `${name.toLowerCase()}@service-accounts.invalid`,
      enabled,
      keys: [],
    },
    rels: { organisations: [orgId], groups: [] },
  });
const agent = (orgId: string, name: string, enabled: boolean) =>
  newRecord(agents, orgId, { attributes: { name, persona: 'Reviews site records.', enabled } });
const subscription = (orgId: string, enabled: boolean, status: string) =>
  newRecord(webhookSubscriptions, orgId, {
    attributes: {
      url: 'https://hooks.example.com/old',
      event_types: ['vehicle.created'],
      enabled,
      description: '',
      status,
      failing_since: status === 'failing' ? '2026-01-01T00:00:00.000Z' : null,
    },
  });

const request = (orgId: string, device: string) =>
  newRecord(deviceBackupRequests, orgId, {
    attributes: { device, status: 'open' },
    rels: { user: null, backup: null, requested_by_user: null, requested_by_service_account: null },
  });

/** A finished inline import of one row, as the request that ran it wrote it. */
const finishedImport = (orgId: string) =>
  newRecord(locationImports, orgId, {
    attributes: {
      ...outcomeOf(1, { valid: 1, created: 1, updated: 0 }, []),
      source: { kind: 'inline', file_name: 'old.csv', bytes: 20 },
      started_at: '2026-01-01T00:00:00.000Z',
      finished_at: '2026-01-01T00:00:01.000Z',
    },
    meta: { write_calls: 1 },
    rels: { author: null, author_service_account: null, import_template: null },
  });

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Old flag filters', 0);
  token = await api.token(tenant.admin);
  const org = tenant.org.id;
  oldAccounts = [
    await beforeFilterIndex(account(org, 'Uploader', false)),
    await beforeFilterIndex(account(org, 'Archiver', false)),
  ];
  oldAgents = [
    await beforeFilterIndex(agent(org, 'Reviewer', true)),
    await beforeFilterIndex(agent(org, 'Auditor', false)),
  ];
  oldSubscriptions = [
    await beforeFilterIndex(subscription(org, true, 'failing')),
    await beforeFilterIndex(subscription(org, false, 'active')),
  ];
  oldRequests = [
    await beforeFilterIndex(request(org, 'tablet-01')),
    await beforeFilterIndex(request(org, 'tablet-02')),
  ];
  oldImports = [await beforeFilterIndex(finishedImport(org)), await beforeFilterIndex(finishedImport(org))];
});
afterAll(async () => {
  await api?.close();
});

const where = async (path: string, query: string) => {
  const res = await api.get(`${path}?${query}&page[limit]=100`, token);
  expect(res.status, res.text).toBe(200);
  return {
    ids: (res.body.data as { id: string }[]).map((r) => r.id),
    total: res.body.meta.pagination.counts.resources as number,
  };
};
const ACCOUNTS = () => `/v3/orgs/${tenant.org.id}/iam/service-accounts`;
const AGENTS = () => `/v3/orgs/${tenant.org.id}/agents`;
const SUBSCRIPTIONS = () => `/v3/orgs/${tenant.org.id}/webhook-subscriptions`;
const REQUESTS = () => `/v3/orgs/${tenant.org.id}/device-backup-requests`;
const IMPORTS = () => `/v3/orgs/${tenant.org.id}/governance/location-imports`;

describe('before the migrations: records written before their flags were indexed', () => {
  it('filter[enabled] and filter[status] miss them', async () => {
    expect(await where(ACCOUNTS(), 'filter[enabled]=false')).toEqual({ ids: [], total: 0 });
    expect(await where(AGENTS(), 'filter[enabled]=false')).toEqual({ ids: [], total: 0 });
    expect(await where(SUBSCRIPTIONS(), 'filter[status]=failing')).toEqual({ ids: [], total: 0 });
    expect(await where(SUBSCRIPTIONS(), 'filter[enabled]=false')).toEqual({ ids: [], total: 0 });
    expect(await where(REQUESTS(), 'filter[status]=open')).toEqual({ ids: [], total: 0 });
    expect(await where(REQUESTS(), 'filter[device]=tablet-01')).toEqual({ ids: [], total: 0 });
    expect(await where(IMPORTS(), 'filter[status]=completed')).toEqual({ ids: [], total: 0 });
  });
});

describe('the flag filter index migrations', () => {
  let run: Awaited<ReturnType<typeof migrate>>;
  const readAll = () =>
    Promise.all([
      ...oldAccounts.map((r) => api.get(`${ACCOUNTS()}/${r.id}`, token)),
      ...oldAgents.map((r) => api.get(`${AGENTS()}/${r.id}`, token)),
      ...oldSubscriptions.map((r) => api.get(`/v3/webhook-subscriptions/${r.id}`, token)),
      ...oldRequests.map((r) => api.get(`${REQUESTS()}/${r.id}`, token)),
      ...oldImports.map((r) => api.get(`${IMPORTS()}/${r.id}`, token)),
    ]);
  let before: Awaited<ReturnType<typeof readAll>>;
  beforeAll(async () => {
    before = await readAll();
    for (const res of before) expect(res.status, res.text).toBe(200);
    run = await migrate();
    expect(run.finished).toBe(true);
  });

  it('service accounts: found by their flag in name order, and counted', async () => {
    expect(run.ran.find((m) => m.name === 'service-account-filter-index')).toMatchObject({ changed: 2 });
    const [uploader, archiver] = oldAccounts.map((r) => r.id);
    expect(await where(ACCOUNTS(), 'filter[enabled]=false')).toEqual({ ids: [archiver, uploader], total: 2 });
  });

  it('agents: found by their flag, and counted', async () => {
    expect(run.ran.find((m) => m.name === 'agent-filter-index')).toMatchObject({ changed: 2 });
    const [reviewer, auditor] = oldAgents.map((r) => r.id);
    expect(await where(AGENTS(), 'filter[enabled]=true')).toEqual({ ids: [reviewer], total: 1 });
    expect(await where(AGENTS(), 'filter[enabled]=false')).toEqual({ ids: [auditor], total: 1 });
  });

  it('webhook subscriptions: found by their flag and their status, and counted', async () => {
    expect(run.ran.find((m) => m.name === 'subscription-filter-index')).toMatchObject({ changed: 2 });
    const [failing, disabled] = oldSubscriptions.map((r) => r.id);
    expect(await where(SUBSCRIPTIONS(), 'filter[status]=failing')).toEqual({ ids: [failing], total: 1 });
    expect(await where(SUBSCRIPTIONS(), 'filter[enabled]=false')).toEqual({ ids: [disabled], total: 1 });
    expect(await where(SUBSCRIPTIONS(), 'filter[status]=active')).toEqual({ ids: [disabled], total: 1 });
  });

  it('device backup requests: found by device and by status, newest first, and counted', async () => {
    expect(run.ran.find((m) => m.name === 'device-backup-request-filter-index')).toMatchObject({
      changed: 2,
    });
    const [first, second] = oldRequests.map((r) => r.id);
    expect(await where(REQUESTS(), 'filter[status]=open')).toEqual({ ids: [second, first], total: 2 });
    expect(await where(REQUESTS(), 'filter[device]=tablet-01')).toEqual({ ids: [first], total: 1 });
  });

  it('location imports: found by status, newest first, and counted', async () => {
    expect(run.ran.find((m) => m.name === 'location-import-filter-index')).toMatchObject({ changed: 2 });
    const [first, second] = oldImports.map((r) => r.id);
    expect(await where(IMPORTS(), 'filter[status]=completed')).toEqual({ ids: [second, first], total: 2 });
  });

  it('each reads back as it did before', async () => {
    const after = await readAll();
    expect(after.map((res) => res.body)).toEqual(before.map((res) => res.body));
  });

  it('run again from scratch, every migration changes no record and writes nothing but its progress', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
  });
});
