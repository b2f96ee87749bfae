/**
 * Migration 12 (issue 42, item 3): webhook deliveries made before a subscription's deliveries were a kept
 * collection (4246cec) keep `lsi1` `<subscription id>#<event id>` and no day's count, so the delivery log
 * did not count them; once `migrate` has run they read back as deliveries made today. A file of its own
 * so its table holds only these records: the runner walks the whole table once per migration.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesByCreation } from '#functions/webhooks/migrations/deliveries-by-creation';
import { documents, tableName } from '#shared/data/clients';
import { EVENT_RETENTION_DAYS } from '#shared/data/events';
import { scanPage } from '#shared/data/migrations';
import { counterKey, resourceKey } from '#shared/data/stored-resource';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { consume, latestEvent, streamRecordOf } from '../support/event-stream';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
let receiver: Server;
let subscriptionId: string;
/** Deliveries: one as made today, one as made before 4246cec (its key, count and TTL taken back). */
let newDelivery: { id: string };
let oldDelivery: { id: string; event_id: string };

const DAY = 86_400_000;

/** A write in the organisation, its event delivered to the subscription: that delivery as made today. */
const deliveredWrite = async (name: string) => {
  const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/assets/equipment-manufacturers`, {
    token: admin,
    body: { data: { type: 'equipment-manufacturers', attributes: { name } } },
  });
  expect(res.status, res.text).toBe(201);
  const event = await latestEvent(tenant.org.id, 'equipment-manufacturer.created', res.body.data.id);
  await consume(streamRecordOf(event));
  const log = await logOf();
  const delivery = log.data.find(
    (d: { attributes: { event_id: string } }) => d.attributes.event_id === event.id,
  );
  expect(delivery).toBeDefined();
  return delivery as { id: string; attributes: { event_id: string }; meta: Record<string, string> };
};

const logOf = async () => {
  const res = await api.get(`/v3/webhook-subscriptions/${subscriptionId}/deliveries?sort=created_at`, admin);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** As `newDelivery` stored one before 4246cec: lsi1 by event id, TTL 35 days on, counted in no day. */
const asBeforeKeptDeliveries = async (delivery: Awaited<ReturnType<typeof deliveredWrite>>) => {
  const createdAt = Date.parse(delivery.meta.created_at as string);
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: resourceKey(tenant.org.id, 'webhook-deliveries', delivery.id),
      UpdateExpression: 'SET lsi1 = :key, expires_at = :at',
      ExpressionAttributeValues: {
        ':key': `${subscriptionId}#${delivery.attributes.event_id}`,
        ':at': Math.floor(createdAt / 1000) + EVENT_RETENTION_DAYS * 86_400,
      },
    }),
  );
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: counterKey(tenant.org.id, `deliveries#${subscriptionId}#days`),
      UpdateExpression: 'ADD #day :less',
      ExpressionAttributeNames: { '#day': `d${new Date(createdAt).toISOString().slice(0, 10)}` },
      ExpressionAttributeValues: { ':less': -1 },
    }),
  );
};

const ttlOf = async (id: string) =>
  Number(
    (
      await documents.send(
        new GetCommand({ TableName: tableName, Key: resourceKey(tenant.org.id, 'webhook-deliveries', id) }),
      )
    ).Item?.expires_at,
  );

const selected = async () =>
  (await scanPage(deliveriesByCreation.select, undefined, 1000)).items.map((i) => i.id);

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Deliveries Org', 0);
  admin = await api.token(tenant.admin);
  receiver = createServer((_req, res) => res.writeHead(200).end('ok'));
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/webhook-subscriptions`, {
    token: admin,
    body: {
      data: {
        type: 'webhook-subscriptions',
        attributes: {
          url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
          event_types: ['equipment-manufacturer.created'],
        },
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  subscriptionId = res.body.data.id;
  const old = await deliveredWrite('Hilti');
  await asBeforeKeptDeliveries(old);
  oldDelivery = { id: old.id, event_id: old.attributes.event_id };
  const made = await deliveredWrite('Makita');
  newDelivery = { id: made.id };
});
afterAll(async () => {
  await api?.close();
  await new Promise<void>((done) => (receiver ? receiver.close(() => done()) : done()));
});

describe('webhook deliveries stored before their log was kept by day of creation', () => {
  it('the migration selects exactly the deliveries whose lsi1 holds their event id', async () => {
    expect(await selected()).toEqual([oldDelivery.id]);
  });

  it('before the migrations, the delivery log lists them but leaves them out of its total', async () => {
    const log = await logOf();
    expect(log.data.map((d: { id: string }) => d.id)).toEqual([oldDelivery.id, newDelivery.id]);
    expect(log.meta.pagination.counts.resources).toBe(1);
  });

  it('after them, they are listed and counted as deliveries made today, expiring at the end of their day plus 35', async () => {
    const run = await migrate();
    expect(run.finished).toBe(true);
    expect(Object.fromEntries(run.ran.map((m) => [m.name, m.changed]))).toMatchObject({
      'deliveries-by-creation': 1,
    });
    const log = await logOf();
    expect(log.data.map((d: { id: string }) => d.id)).toEqual([oldDelivery.id, newDelivery.id]);
    expect(log.meta.pagination.counts.resources).toBe(2);
    expect(await selected()).toEqual([]);
    const read = await api.get(`/v3/webhook-deliveries/${oldDelivery.id}`, admin);
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.attributes.event_id).toBe(oldDelivery.event_id);
    // A delivery's TTL is not served: the stored one is the end of its day of creation plus 35 days.
    const [oldTtl, newTtl] = await Promise.all([ttlOf(oldDelivery.id), ttlOf(newDelivery.id)]);
    expect(oldTtl).toBe(newTtl);
    expect((oldTtl * 1000) % DAY).toBe(0);
  });

  it('run again from scratch, it changes no delivery and counts nothing twice', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
    expect((await logOf()).meta.pagination.counts.resources).toBe(2);
  });
});
