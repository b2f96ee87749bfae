/**
 * Issue 18, item 2: delivery through the table's stream. Locally the stream of DynamoDB Local is polled
 * and each batch handed, in Lambda's shape, to the consumer module the stack deploys on the stream
 * (`functions/events/consume.ts`): every event once, in the order of its organisation's commits; items
 * that are not events are passed over; a consumer that fails is handed the same event again, and
 * nothing after it runs ahead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeWith } from '#functions/events/consume-batch';
import type { StoredEvent } from '#shared/data/events';
import type { EventConsumer } from '#shared/engine/event-consumers';
import { handler } from '../../functions/events/consume';
import { startEventStream } from '../../infra/local/event-stream';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
const handed: StoredEvent[] = [];
/** Manufacturers whose events the consumer refuses, by name, and how many more times. */
const refusals = new Map<string, number>();
const lines: string[] = [];

const recorder: EventConsumer = {
  name: 'recorder',
  handle: async (event) => {
    const name = String((event.data as { attributes?: { name?: unknown } }).attributes?.name);
    const left = refusals.get(name) ?? 0;
    handed.push(event);
    if (left > 0) {
      refusals.set(name, left - 1);
      throw new Error('not now');
    }
  },
};

let stream: Awaited<ReturnType<typeof startEventStream>>;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Stream Org', 0);
  token = await api.token(tenant.admin);
  stream = await startEventStream({
    endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName: process.env.TABLE_NAME ?? '',
    handler: consumeWith([recorder]),
    intervalMs: 50,
    log: (line) => lines.push(line),
  });
});
afterAll(async () => {
  await stream.stop();
  await api.close();
});

const manufacturer = async (name: string) => {
  const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/assets/equipment-manufacturers`, {
    token,
    body: { data: { type: 'equipment-manufacturers', attributes: { name } } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};

/** The manufacturers' events handed over (the tenant's own set-up made events too). */
const ofOrg = () =>
  handed.filter((e) => e.org_id === tenant.org.id && e.subject.type === 'equipment-manufacturers');

describe('issue 18, item 2: the stream hands every event to the consumers', () => {
  it('each write’s event arrives once, whole, in commit order; other items are not handed over', async () => {
    const ids = [await manufacturer('Hilti'), await manufacturer('Makita'), await manufacturer('Bosch')];
    await stream.drain();
    const events = ofOrg();
    expect(events.map((e) => e.subject.id)).toEqual(ids);
    expect(events.map((e) => e.event)).toEqual(Array(3).fill('equipment-manufacturer.created'));
    expect(events[0]).toMatchObject({
      org_id: tenant.org.id,
      actor: { kind: 'service-account', id: tenant.admin.principalId },
      data: { type: 'equipment-manufacturers', id: ids[0], attributes: { name: 'Hilti' } },
    });
    // Records, counters and principals went through the stream too; only events reach consumers.
    expect(handed.every((e) => e.pk.startsWith('EVENTS#'))).toBe(true);
  });

  it('a consumer that fails gets the same event again, and the events after it wait', async () => {
    const before = ofOrg().length;
    refusals.set('DeWalt', 1);
    const next = await manufacturer('DeWalt');
    const after = await manufacturer('Milwaukee');
    await stream.drain();
    expect(
      ofOrg()
        .slice(before)
        .map((e) => e.subject.id),
    ).toEqual([next, next, after]);
  });

  it('an event that keeps failing is passed after the attempts, reported, and the stream goes on', async () => {
    refusals.set('Festool', 99);
    const stuck = await manufacturer('Festool');
    const later = await manufacturer('Metabo');
    await stream.drain();
    const seen = ofOrg().map((e) => e.subject.id);
    expect(seen.filter((id) => id === stuck)).toHaveLength(3);
    expect(seen.at(-1)).toBe(later);
    expect(lines.some((l) => l.includes('failed 3 times; passed'))).toBe(true);
  });
});

describe('issue 18, item 7: through the stream, the deployed consumers keep the audit log', () => {
  it('npm start’s poller, handing events to the stack’s consumer function, writes each write’s audit entry', async () => {
    const deployed = await startEventStream({
      endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
      tableName: process.env.TABLE_NAME ?? '',
      handler,
      intervalMs: 50,
      log: (line) => lines.push(line),
    });
    try {
      const id = await manufacturer('Stihl');
      await deployed.drain();
      const entries = await api.get(`/v3/orgs/${tenant.org.id}/audit-events?filter[subject_id]=${id}`, token);
      expect(entries.body.data.map((e: { attributes: object }) => e.attributes)).toEqual([
        expect.objectContaining({
          action: 'equipment-manufacturer.created',
          actor: { kind: 'service-account', id: tenant.admin.principalId },
          before: null,
          after: expect.objectContaining({ attributes: expect.objectContaining({ name: 'Stihl' }) }),
        }),
      ]);
    } finally {
      await deployed.stop();
    }
  });
});
