/**
 * Migration audit-states (issue 42, item 7): events carry what their write changed, so the audit consumer
 * keeps no state per subject. What the consumer before kept (built here as it wrote it: a subject's history
 * item `{count, state, mark}` on the organisation's counters, and a former `audit-states` item) is removed:
 * a vehicle's history item keeps its count (its history's total), any other subject's goes, and
 * every former state item goes. Histories and the organisation's list answer as before, and a rerun
 * changes nothing.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyCounter } from '#functions/audit/audit-events';
import { formerStateKey } from '#functions/audit/consumer';
import { auditStates } from '#functions/audit/migrations/audit-states';
import type { Members } from '#shared/data/changed-members';
import { documents, tableName } from '#shared/data/clients';
import { uuidv7 } from '#shared/data/ids';
import { getItem } from '#shared/data/repository';
import { counterKey, type StoredResource } from '#shared/data/stored-resource';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents, latestEvent } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
let van: string;
let maker: string;
const gone = uuidv7();

const org = () => `/v3/orgs/${tenant.org.id}`;
const put = (item: object) => documents.send(new PutCommand({ TableName: tableName, Item: item }));

/** What a read shows: the van's history (ids, total) and the organisation's list total. */
const answers = async () => {
  const history = (await api.get(`/v3/vehicles/${van}/audit-events`, token)).body;
  const all = (await api.get(`${org()}/audit-events`, token)).body;
  return {
    history: history.data.map((e: { id: string }) => e.id),
    historyTotal: history.meta.pagination.counts.resources,
    total: all.meta.pagination.counts.resources,
  };
};

/** The old consumer's history item for a subject: its count, its members as its last event left them, its mark. */
const oldHistoryItem = async (subjectId: string, name: string, count: number) => {
  const last = await latestEvent(tenant.org.id, name, subjectId);
  const { attributes, relationships } = last.data as Members;
  return {
    ...historyCounter(tenant.org.id, subjectId),
    org_id: tenant.org.id,
    count,
    state: { attributes, relationships },
    // Its place in the subject's order: the version the event left it at, then the event's id.
    mark: `${String(last.subject_version).padStart(12, '0')}#${last.id}`,
  };
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Audit States Org', 0);
  token = await api.token(tenant.admin);
  const made = await api.request('POST', `${org()}/assets/vehicles`, {
    token,
    body: { data: { type: 'vehicles', attributes: { registration: 'AS24 VAN' } } },
  });
  expect(made.status, made.text).toBe(201);
  van = made.body.data.id;
  const recoloured = await api.request('PATCH', `/v3/vehicles/${van}`, {
    token,
    body: { data: { type: 'vehicles', id: van, attributes: { colour: 'red' } } },
  });
  expect(recoloured.status, recoloured.text).toBe(200);
  const manufacturer = await api.request('POST', `${org()}/assets/equipment-manufacturers`, {
    token,
    body: { data: { type: 'equipment-manufacturers', attributes: { name: 'Old Co' } } },
  });
  expect(manufacturer.status, manufacturer.text).toBe(201);
  maker = manufacturer.body.data.id;
  await deliverEvents(tenant.org.id);
  // As the consumer before this change left them.
  await put(await oldHistoryItem(van, 'vehicle.updated', 2));
  await put(await oldHistoryItem(maker, 'equipment-manufacturer.created', 1));
  await put({
    ...formerStateKey(tenant.org.id, gone),
    org_id: tenant.org.id,
    state: { attributes: { name: 'Gone' } },
  });
});
afterAll(() => api?.close());

describe('the audit consumer’s state items, kept per subject before events carried what they changed', () => {
  it('are removed: a vehicle’s history item keeps its count without its state and mark, any other subject’s history item and every former state item go; every answer is as before', async () => {
    const before = await answers();
    expect(before).toMatchObject({ historyTotal: 2 });
    const entries = await getItem(counterKey(tenant.org.id, 'audit-events'), true);
    const run = await migrate();
    expect(run.finished).toBe(true);
    const changed = Object.fromEntries(run.ran.map((m) => [m.name, m.changed]));
    expect(changed['audit-states']).toBeGreaterThanOrEqual(3);
    const held = await getItem<Record<string, unknown>>(historyCounter(tenant.org.id, van), true);
    expect(held).toMatchObject({ count: 2 });
    expect(held).not.toHaveProperty('state');
    expect(held).not.toHaveProperty('mark');
    expect(await getItem(historyCounter(tenant.org.id, maker), true)).toBeNull();
    expect(await getItem(formerStateKey(tenant.org.id, gone), true)).toBeNull();
    expect(await answers()).toEqual(before);
    // The organisation's count of entries is not a subject's: it stays.
    expect(await getItem(counterKey(tenant.org.id, 'audit-events'), true)).toEqual(entries);
  });

  it('a rerun over the same items changes nothing, and the next change of the vehicle is recorded and counted as any', async () => {
    const items = [
      historyCounter(tenant.org.id, van),
      historyCounter(tenant.org.id, maker),
      formerStateKey(tenant.org.id, gone),
    ];
    const found = (await Promise.all(items.map((key) => getItem<StoredResource>(key, true)))).filter(
      (item): item is StoredResource => item !== null,
    );
    expect(await auditStates.migrate(found, new Date())).toBe(0);
    const patch = await api.request('PATCH', `/v3/vehicles/${van}`, {
      token,
      body: { data: { type: 'vehicles', id: van, attributes: { colour: 'blue' } } },
    });
    expect(patch.status, patch.text).toBe(200);
    await deliverEvents(tenant.org.id);
    const history = (await api.get(`/v3/vehicles/${van}/audit-events`, token)).body;
    expect(history.meta.pagination.counts.resources).toBe(3);
    expect(history.data[0].attributes).toMatchObject({
      before: { attributes: { colour: 'red' } },
      after: { attributes: { colour: 'blue' } },
    });
  });
});
