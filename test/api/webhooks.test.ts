/**
 * Issue 18, item 4: webhooks. Subscriptions per organisation (URL, event types, enabled; a secret shown
 * once, rotatable with two live secrets), deliveries signed per Standard Webhooks and verified here with
 * the `standardwebhooks` package, retried on a schedule of at least 24 hours, then the subscription marked
 * failing; redelivery on request; loopback receivers only because the tests' configuration allows them.
 *
 * A loopback HTTP receiver stands in for a client. Events reach the consumer as the table's stream hands
 * them over (a stream record built from the event item, `test/support/event-stream.ts`); the retry runner
 * is driven with an injected `now` in the future instead of waiting.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runDue } from '#functions/due-work/run';
import { eventResource } from '#functions/events/feed';
import { webhookDeliveries, webhookSubscriptions } from '#functions/webhooks/definitions';
import { deliverEvent, deliveryId } from '#functions/webhooks/deliveries';
import { documents, tableName } from '#shared/data/clients';
import type { StoredEvent } from '#shared/data/events';
import { createServiceAccountClient } from '../../infra/local/records';
import { type ApiResponse, startTestApi, type TestApi } from '../support/api';
import { idsByCursor } from '../support/cursor-walk';
import { consume, latestEvent, streamRecordOf } from '../support/event-stream';
import { metricLines, writtenWhile } from '../support/output';
import { itemsRead, queryScans } from '../support/query-scans';
import { newTenant, type Tenant } from '../support/tenants';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A client's endpoint on loopback: records each request, answers the next queued status (else `fallback`). */
const startReceiver = async (fallback = 200) => {
  const received: Received[] = [];
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answers.shift() ?? receiver.fallback, { 'content-type': 'text/plain' });
      res.end(`answer ${received.length}`);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    answers,
    fallback,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  return receiver;
};
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let token: string;
let otherToken: string;
let viewerToken: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Webhooks Org', 1), newTenant('Webhooks Other Org', 1)]);
  [token, otherToken, viewerToken] = await Promise.all([
    api.token(tenant.admin),
    api.token(other.admin),
    api.token(tenant.viewer),
  ]);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await api.close();
});

const receiver = async (fallback?: number) => {
  const r = await startReceiver(fallback);
  receivers.push(r);
  return r;
};

const subscribe = (attributes: Record<string, unknown>, as = token, org = tenant.org.id) =>
  api.request('POST', `/v3/orgs/${org}/webhook-subscriptions`, {
    token: as,
    body: { data: { type: 'webhook-subscriptions', attributes } },
  });

const created = (res: ApiResponse) => {
  expect(res.status, res.text).toBe(201);
  return { id: res.body.data.id as string, secret: res.body.data.attributes.secret as string };
};

/** A write in the organisation (an equipment manufacturer), and its event as the stream would carry it. */
const write = async (name = 'Hilti'): Promise<StoredEvent> => {
  const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/assets/equipment-manufacturers`, {
    token,
    body: { data: { type: 'equipment-manufacturers', attributes: { name } } },
  });
  expect(res.status, res.text).toBe(201);
  const event = await latestEvent(tenant.org.id, 'equipment-manufacturer.created');
  expect(event.subject.id).toBe(res.body.data.id);
  return event;
};

const deliveriesOf = async (subscriptionId: string, as = token) => {
  const res = await api.get(`/v3/webhook-subscriptions/${subscriptionId}/deliveries`, as);
  expect(res.status, res.text).toBe(200);
  return res.body.data as { id: string; attributes: Record<string, unknown> }[];
};

/** Verifies a received request with a secret, as a receiver would, at `at` (the library reads the clock). */
const verify = (secret: string, request: Received, at = Date.now()) => {
  const clock = vi.spyOn(Date, 'now').mockReturnValue(at);
  try {
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
  } finally {
    clock.mockRestore();
  }
};

const HOUR = 3600_000;

describe('issue 18, item 4: subscriptions', () => {
  it('creating one answers its signing secret once (whsec_ + base64 of 32 bytes); reads never show it, and the table holds it only encrypted', async () => {
    const hook = await receiver();
    const { id, secret } = created(
      await subscribe({ url: hook.url, event_types: ['equipment-manufacturer.created'], description: 'ERP' }),
    );
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    const one = await api.get(`/v3/webhook-subscriptions/${id}`, token);
    expect(one.status).toBe(200);
    expect(one.body.data.attributes).toMatchObject({
      url: hook.url,
      event_types: ['equipment-manufacturer.created'],
      enabled: true,
      description: 'ERP',
      status: 'active',
      failing_since: null,
    });
    const list = await api.get(`/v3/orgs/${tenant.org.id}/webhook-subscriptions`, token);
    const stored = await documents.send(
      new GetCommand({ TableName: tableName, Key: webhookSubscriptions.keyOf(tenant.org.id, id) }),
    );
    const event = await latestEvent(tenant.org.id, 'webhook-subscription.created');
    for (const text of [one.text, list.text, JSON.stringify(stored.Item), JSON.stringify(event)]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(6));
    }
    expect(JSON.stringify(stored.Item?.secrets)).toMatch(/"ciphertext":"local1:/);
  });

  it('refuses a URL that is not https (http only to loopback), names a private, link-local or unspecified address, or carries credentials: 400 at /data/attributes/url', async () => {
    for (const url of [
      'http://hooks.example.com/in',
      'https://10.0.0.1/in',
      'https://192.168.1.20/in',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00::1]/in',
      'https://[::ffff:10.0.0.1]/in',
      'https://0.0.0.0/in',
      'https://user:pass@hooks.example.com/in',
      'ftp://hooks.example.com/in',
      'not a url',
    ]) {
      const res = await subscribe({ url, event_types: ['vehicle.created'] });
      expect(res.status, url).toBe(400);
      expect(res.body.errors[0].source, url).toEqual({ pointer: '/data/attributes/url' });
    }
  });

  it('issue 39, finding 8: refuses a URL holding whitespace or control characters (the URL parser would drop them): 400 at /data/attributes/url, on create and on PATCH, and nothing is stored', async () => {
    const kept = created(
      await subscribe({ url: 'https://hooks.example.com/kept', event_types: ['vehicle.created'] }),
    );
    for (const url of [
      'https://example.com/a\r\nX: y',
      'https://exa mple.com/',
      'https://example.com/a\tb',
      'https://example.com/a\u2028b',
    ]) {
      const made = await subscribe({ url, event_types: ['vehicle.created'] });
      expect(made.status, JSON.stringify(url)).toBe(400);
      expect(made.body.errors[0].source, JSON.stringify(url)).toEqual({ pointer: '/data/attributes/url' });
      const changed = await api.request('PATCH', `/v3/webhook-subscriptions/${kept.id}`, {
        token,
        body: { data: { type: 'webhook-subscriptions', id: kept.id, attributes: { url } } },
      });
      expect(changed.status, JSON.stringify(url)).toBe(400);
      expect(changed.body.errors[0].source).toEqual({ pointer: '/data/attributes/url' });
    }
    const list = await api.get(`/v3/orgs/${tenant.org.id}/webhook-subscriptions`, token);
    expect(list.status, list.text).toBe(200);
    const urls = (list.body.data as { attributes: { url: string } }[]).map((s) => s.attributes.url);
    expect(urls.filter((u) => /\s/.test(u))).toEqual([]);
    expect((await api.get(`/v3/webhook-subscriptions/${kept.id}`, token)).body.data.attributes.url).toBe(
      'https://hooks.example.com/kept',
    );
  });

  it('event_types names events the service emits, or "*" alone; export events are never delivered (private to their creator)', async () => {
    for (const event_types of [[], ['vehicle.exploded'], ['*', 'vehicle.created'], ['export.created']]) {
      const res = await subscribe({ url: 'https://hooks.example.com/in', event_types });
      expect(res.status, JSON.stringify(event_types)).toBe(400);
      expect(res.body.errors[0].source.pointer).toMatch(/^\/data\/attributes\/event_types/);
    }
    created(await subscribe({ url: 'https://hooks.example.com/in', event_types: ['*'], enabled: false }));
  });

  it('subscribing needs webhooks:manage, and the read permission of every subject the events carry (403)', async () => {
    const viewer = await subscribe(
      { url: 'https://hooks.example.com/in', event_types: ['vehicle.created'] },
      viewerToken,
    );
    expect(viewer.status).toBe(403);
    const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/roles`, {
      token,
      body: {
        data: {
          type: 'roles',
          attributes: {
            name: 'Webhook admin',
            permissions: ['webhooks:view', 'webhooks:manage', 'assets:view'],
          },
        },
      },
    });
    expect(role.status, role.text).toBe(201);
    const narrow = await api.token(
      await createServiceAccountClient('Webhook admin', [{ org_id: tenant.org.id, role: role.body.data.id }]),
    );
    const url = 'https://hooks.example.com/in';
    expect((await subscribe({ url, event_types: ['cost-line.created'] }, narrow)).status).toBe(403);
    expect((await subscribe({ url, event_types: ['*'] }, narrow)).status).toBe(403);
    created(await subscribe({ url, event_types: ['vehicle.created'] }, narrow));
  });
});

describe('issue 18, item 4: delivery', () => {
  let hook: Receiver;
  let subscription: { id: string; secret: string };
  let event: StoredEvent;
  let filtered: Receiver;
  let disabled: Receiver;

  beforeAll(async () => {
    [hook, filtered, disabled] = await Promise.all([receiver(), receiver(), receiver()]);
    subscription = created(
      await subscribe({ url: hook.url, event_types: ['equipment-manufacturer.created'] }),
    );
    created(
      await subscribe({
        url: filtered.url,
        event_types: ['vehicle.created', 'equipment-manufacturer.updated'],
      }),
    );
    created(await subscribe({ url: disabled.url, event_types: ['*'], enabled: false }));
    event = await write('Makita');
    await consume(streamRecordOf(event));
  });

  it('a write’s event reaches the subscription signed per Standard Webhooks: Webhook.verify accepts it; webhook-id is the event id', () => {
    expect(hook.received).toHaveLength(1);
    const [request] = hook.received as [Received];
    expect(request.headers['webhook-id']).toBe(event.id);
    expect(Number(request.headers['webhook-timestamp'])).toBeGreaterThan(0);
    expect(request.headers['content-type']).toBe('application/json');
    const payload = verify(subscription.secret, request);
    expect(payload).toEqual({
      type: 'equipment-manufacturer.created',
      timestamp: event.occurred_at,
      data: eventResource(event),
    });
    expect(() => verify(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, request)).toThrow();
  });

  it('the delivery records its attempt: number, status code, duration, answer excerpt; GET …/deliveries and GET /v3/webhook-deliveries/{id} show it', async () => {
    const [delivery] = await deliveriesOf(subscription.id);
    expect(delivery?.attributes).toMatchObject({
      event_id: event.id,
      event_type: 'equipment-manufacturer.created',
      status: 'delivered',
      attempt_count: 1,
      next_attempt_at: null,
    });
    const [attempt] = (delivery?.attributes.attempts ?? []) as Record<string, unknown>[];
    expect(attempt).toMatchObject({
      number: 1,
      status_code: 200,
      response_excerpt: 'answer 1',
      error: null,
      manual: false,
    });
    expect(typeof attempt?.duration_ms).toBe('number');
    const one = await api.get(`/v3/webhook-deliveries/${delivery?.id}`, token);
    expect(one.status).toBe(200);
    expect(one.body.data.relationships.subscription.data).toEqual({
      type: 'webhook-subscriptions',
      id: subscription.id,
    });
  });

  it('the stream delivering the same record again makes no second delivery and no second request (idempotent by event id)', async () => {
    await consume(streamRecordOf(event));
    await consume(streamRecordOf(event));
    expect(hook.received).toHaveLength(1);
    expect(await deliveriesOf(subscription.id)).toHaveLength(1);
  });

  it('event_types filter what a subscription receives, and a disabled subscription receives nothing', () => {
    expect(filtered.received).toHaveLength(0);
    expect(disabled.received).toHaveLength(0);
  });

  it('a receiver answering 500 is retried when due (5 s later), not before; its 200 then delivers', async () => {
    const flaky = await receiver();
    flaky.answers.push(500);
    const { id, secret } = created(
      await subscribe({ url: flaky.url, event_types: ['equipment-manufacturer.created'] }),
    );
    const now = Date.now();
    const second = await write('Bosch');
    await consume(streamRecordOf(second));
    expect(flaky.received).toHaveLength(1);
    let [delivery] = await deliveriesOf(id);
    expect(delivery?.attributes).toMatchObject({ status: 'pending', attempt_count: 1 });
    const due = Date.parse(String(delivery?.attributes.next_attempt_at));
    expect(due - now).toBeGreaterThanOrEqual(5000);
    expect(due - now).toBeLessThan(5000 + 60_000);
    await runDue(due - 1000);
    expect(flaky.received).toHaveLength(1);
    await runDue(due);
    expect(flaky.received).toHaveLength(2);
    [delivery] = await deliveriesOf(id);
    expect(delivery?.attributes).toMatchObject({ status: 'delivered', attempt_count: 2 });
    expect(
      ((delivery?.attributes.attempts ?? []) as { status_code: number }[]).map((a) => a.status_code),
    ).toEqual([500, 200]);
    // Every attempt sends the same event: same webhook-id, same body, each signed at its own time.
    const [first, retry] = flaky.received as [Received, Received];
    expect(retry.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(retry.body).toBe(first.body);
    expect(verify(secret, retry, due)).toMatchObject({ type: 'equipment-manufacturer.created' });
  });

  let down: Receiver;
  let downSubscription: string;
  let failedDelivery: string;

  it('retries follow the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: over 24 h); after the last fails the delivery is failed and the subscription failing', async () => {
    down = await receiver(503);
    downSubscription = created(
      await subscribe({ url: down.url, event_types: ['equipment-manufacturer.created'] }),
    ).id;
    await consume(streamRecordOf(await write('Dewalt')));
    const gaps: number[] = [];
    let last = Date.now();
    const written: Record<string, unknown>[] = [];
    for (let attempt = 2; attempt <= 8; attempt++) {
      const [delivery] = await deliveriesOf(downSubscription);
      const due = Date.parse(String(delivery?.attributes.next_attempt_at));
      gaps.push(due - last);
      last = due;
      written.push(...(await writtenWhile(() => runDue(due))).lines);
      expect(down.received, `attempt ${attempt}`).toHaveLength(attempt);
    }
    // The subscription turning failing is counted once, as the WebhookSubscriptionFailing metric (it alarms).
    expect(metricLines(written)).toEqual([
      expect.objectContaining({ WebhookSubscriptionFailing: 1, service: 'compliance-api' }),
    ]);
    const [delivery] = await deliveriesOf(downSubscription);
    failedDelivery = String(delivery?.id);
    expect(delivery?.attributes).toMatchObject({ status: 'failed', attempt_count: 8, next_attempt_at: null });
    expect(((delivery?.attributes.attempts ?? []) as { error: string }[])[7]?.error).toBe(
      'The receiver answered 503.',
    );
    // The first gap runs from before the first attempt; each later one is exactly the schedule's.
    expect(gaps.slice(1)).toEqual([300, 1800, 7200, 18_000, 36_000, 36_000].map((s) => s * 1000));
    expect(gaps.reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * HOUR);
    const sub = await api.get(`/v3/webhook-subscriptions/${downSubscription}`, token);
    expect(sub.body.data.attributes.status).toBe('failing');
    expect(sub.body.data.attributes.failing_since).toEqual(expect.any(String));
    // Nothing more is attempted, however late the runner looks.
    await runDue(last + 48 * HOUR);
    expect(down.received).toHaveLength(8);
  });

  it('a failing subscription receives no new events until it is changed (PATCH makes it active again)', async () => {
    await consume(streamRecordOf(await write('Festool')));
    expect(down.received).toHaveLength(8);
    const patched = await api.request('PATCH', `/v3/webhook-subscriptions/${downSubscription}`, {
      token,
      body: { data: { type: 'webhook-subscriptions', id: downSubscription, attributes: { enabled: true } } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.attributes).toMatchObject({ status: 'active', failing_since: null });
  });

  it('redeliver answers 202 with the delivery due now (409 while it is due), and the runner makes exactly one attempt', async () => {
    down.fallback = 204;
    const res = await api.request('POST', `/v3/webhook-deliveries/${failedDelivery}/redeliver`, { token });
    expect(res.status, res.text).toBe(202);
    expect(res.body.data.attributes).toMatchObject({ status: 'pending', redelivery_requested: true });
    expect(down.received).toHaveLength(8);
    const again = await api.request('POST', `/v3/webhook-deliveries/${failedDelivery}/redeliver`, { token });
    expect(again.status).toBe(409);
    await runDue(Date.now());
    expect(down.received).toHaveLength(9);
    const one = await api.get(`/v3/webhook-deliveries/${failedDelivery}`, token);
    expect(one.body.data.attributes).toMatchObject({ status: 'delivered', attempt_count: 9 });
    expect((one.body.data.attributes.attempts as { manual: boolean }[]).at(-1)).toMatchObject({
      manual: true,
      status_code: 204,
    });
  });

  it('rotation: the new secret is shown once; both secrets verify for 24 hours, only the new one after', async () => {
    const rotated = await api.request('POST', `/v3/webhook-subscriptions/${subscription.id}/rotate-secret`, {
      token,
    });
    expect(rotated.status, rotated.text).toBe(200);
    const fresh = rotated.body.data.attributes.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(subscription.secret);
    expect((await api.get(`/v3/webhook-subscriptions/${subscription.id}`, token)).text).not.toContain(fresh);
    const rotatedAt = Date.now();
    const third = await write('Metabo');
    await consume(streamRecordOf(third));
    const during = hook.received.at(-1) as Received;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(fresh, during)).toMatchObject({ type: 'equipment-manufacturer.created' });
    expect(verify(subscription.secret, during)).toMatchObject({ type: 'equipment-manufacturer.created' });
    // A day and an hour later: a redelivery is signed with the new secret alone.
    const [latest] = await deliveriesOf(subscription.id);
    expect(
      (await api.request('POST', `/v3/webhook-deliveries/${latest?.id}/redeliver`, { token })).status,
    ).toBe(202);
    const later = rotatedAt + 25 * HOUR;
    await runDue(later);
    const after = hook.received.at(-1) as Received;
    expect(after).not.toBe(during);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(fresh, after, later)).toMatchObject({ type: 'equipment-manufacturer.created' });
    expect(() => verify(subscription.secret, after, later)).toThrow('No matching signature found');
  });

  it('an address that does not resolve fails the attempt with its reason recorded, and is retried', async () => {
    const { id } = created(
      await subscribe({ url: 'https://hooks.invalid/in', event_types: ['equipment-manufacturer.created'] }),
    );
    await consume(streamRecordOf(await write('Hikoki')));
    const [delivery] = await deliveriesOf(id);
    expect(delivery?.attributes.status).toBe('pending');
    const [attempt] = (delivery?.attributes.attempts ?? []) as { status_code: null; error: string }[];
    expect(attempt?.status_code).toBeNull();
    expect(attempt?.error).toMatch(/^hooks\.invalid did not resolve/);
  });
});

describe('issue 18, item 4: permissions and tenant isolation', () => {
  let subscriptionId: string;
  let deliveryId: string;

  beforeAll(async () => {
    const hook = await receiver();
    subscriptionId = created(
      await subscribe({ url: hook.url, event_types: ['equipment-manufacturer.created'] }),
    ).id;
    await consume(streamRecordOf(await write('Milwaukee')));
    deliveryId = String((await deliveriesOf(subscriptionId))[0]?.id);
  });

  it('a viewer (webhooks:view) reads subscriptions and deliveries but may not change, rotate or redeliver (403)', async () => {
    expect((await api.get(`/v3/webhook-subscriptions/${subscriptionId}`, viewerToken)).status).toBe(200);
    expect((await api.get(`/v3/webhook-deliveries/${deliveryId}`, viewerToken)).status).toBe(200);
    for (const [method, path] of [
      ['POST', `/v3/webhook-deliveries/${deliveryId}/redeliver`],
      ['POST', `/v3/webhook-subscriptions/${subscriptionId}/rotate-secret`],
      ['DELETE', `/v3/webhook-subscriptions/${subscriptionId}`],
    ] as const)
      expect((await api.request(method, path, { token: viewerToken })).status, path).toBe(403);
  });

  it('another organisation’s administrator cannot read, list, change, rotate or redeliver them: 404, as if absent', async () => {
    for (const [method, path] of [
      ['GET', `/v3/webhook-subscriptions/${subscriptionId}`],
      ['GET', `/v3/webhook-subscriptions/${subscriptionId}/deliveries`],
      ['GET', `/v3/webhook-deliveries/${deliveryId}`],
      ['POST', `/v3/webhook-deliveries/${deliveryId}/redeliver`],
      ['POST', `/v3/webhook-subscriptions/${subscriptionId}/rotate-secret`],
      ['DELETE', `/v3/webhook-subscriptions/${subscriptionId}`],
    ] as const) {
      const res = await api.request(method, path, { token: otherToken });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const patch = await api.request('PATCH', `/v3/webhook-subscriptions/${subscriptionId}`, {
      token: otherToken,
      body: { data: { type: 'webhook-subscriptions', id: subscriptionId, attributes: { enabled: false } } },
    });
    expect(patch.status).toBe(404);
    const list = await api.get(`/v3/orgs/${other.org.id}/webhook-subscriptions`, otherToken);
    expect(list.body.data.map((s: { id: string }) => s.id)).not.toContain(subscriptionId);
    expect((await api.get(`/v3/orgs/${tenant.org.id}/webhook-subscriptions`, otherToken)).status).toBe(404);
    // Still there, unchanged, for its own organisation.
    const mine = await api.get(`/v3/webhook-subscriptions/${subscriptionId}`, token);
    expect(mine.body.data.attributes.enabled).toBe(true);
  });

  it('another organisation’s events never reach this organisation’s subscriptions', async () => {
    const hook = await receiver();
    created(await subscribe({ url: hook.url, event_types: ['*'] }));
    const res = await api.request('POST', `/v3/orgs/${other.org.id}/assets/equipment-manufacturers`, {
      token: otherToken,
      body: { data: { type: 'equipment-manufacturers', attributes: { name: 'Stihl' } } },
    });
    expect(res.status).toBe(201);
    await consume(streamRecordOf(await latestEvent(other.org.id, 'equipment-manufacturer.created')));
    expect(hook.received).toHaveLength(0);
  });
});

describe('issue 39, finding 2: changing, rotating or redelivering a subscription needs the read permissions of every record it carries', () => {
  /** Holds webhooks:view, webhooks:manage and assets:view: not the reads of roles, grants or costs. */
  let manager: string;
  let wide: { id: string; url: string; secret: string };
  let wideDelivery: string;
  let own: { id: string; secret: string };
  let ownDelivery: string;

  const patch = (id: string, attributes: Record<string, unknown>, as: string) =>
    api.request('PATCH', `/v3/webhook-subscriptions/${id}`, {
      token: as,
      body: { data: { type: 'webhook-subscriptions', id, attributes } },
    });
  const storedSubscription = async (id: string) =>
    (
      await documents.send(
        new GetCommand({ TableName: tableName, Key: webhookSubscriptions.keyOf(tenant.org.id, id) }),
      )
    ).Item;
  const expectRefusal = (res: ApiResponse, doing: string) => {
    expect(res.status, res.text).toBe(403);
    expect(res.body.errors[0]).toMatchObject({ code: 'AUTH.002' });
    // It names what the caller may not read, and only that: assets:view is held.
    expect(res.body.errors[0].detail).toMatch(new RegExp(`^${doing} needs .*roles:view`));
    expect(res.body.errors[0].detail).not.toContain('assets:view');
    expect(res.text).not.toContain('whsec_');
  };

  beforeAll(async () => {
    const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/roles`, {
      token,
      body: {
        data: {
          type: 'roles',
          attributes: {
            name: 'Webhook manager',
            permissions: ['webhooks:view', 'webhooks:manage', 'assets:view'],
          },
        },
      },
    });
    expect(role.status, role.text).toBe(201);
    manager = await api.token(
      await createServiceAccountClient('Webhook manager', [
        { org_id: tenant.org.id, role: role.body.data.id },
      ]),
    );
    const [adminHook, managerHook] = await Promise.all([receiver(), receiver()]);
    wide = { ...created(await subscribe({ url: adminHook.url, event_types: ['*'] })), url: adminHook.url };
    own = created(
      await subscribe({ url: managerHook.url, event_types: ['equipment-manufacturer.created'] }, manager),
    );
    const event = await write('Bosch');
    await consume(streamRecordOf(event));
    [wideDelivery, ownDelivery] = [deliveryId(wide.id, event.id), deliveryId(own.id, event.id)];
    for (const id of [wideDelivery, ownDelivery]) {
      const delivery = await api.get(`/v3/webhook-deliveries/${id}`, token);
      expect(delivery.body.data.attributes.status).toBe('delivered');
    }
  });

  it('re-pointing the administrator’s "*" subscription to another URL is 403 naming the permissions lacked; the stored URL is unchanged', async () => {
    expectRefusal(
      await patch(wide.id, { url: 'https://attacker.example.com/in' }, manager),
      'Changing this subscription',
    );
    const after = await api.get(`/v3/webhook-subscriptions/${wide.id}`, token);
    expect(after.body.data.attributes.url).toBe(wide.url);
  });

  it('turning it off or on (enabled alone) is 403 too; nothing changes', async () => {
    const before = await storedSubscription(wide.id);
    for (const enabled of [false, true])
      expectRefusal(await patch(wide.id, { enabled }, manager), 'Changing this subscription');
    expect(await storedSubscription(wide.id)).toEqual(before);
  });

  it('rotating its secret is 403: no secret is shown, and the stored secrets are those it had', async () => {
    const before = await storedSubscription(wide.id);
    expectRefusal(
      await api.request('POST', `/v3/webhook-subscriptions/${wide.id}/rotate-secret`, { token: manager }),
      "Rotating this subscription's secret",
    );
    expect((await storedSubscription(wide.id))?.secrets).toEqual(before?.secrets);
  });

  it('redelivering one of its deliveries is 403; the delivery is not made due again', async () => {
    expectRefusal(
      await api.request('POST', `/v3/webhook-deliveries/${wideDelivery}/redeliver`, { token: manager }),
      'Redelivering to this subscription',
    );
    const delivery = await api.get(`/v3/webhook-deliveries/${wideDelivery}`, token);
    expect(delivery.body.data.attributes).toMatchObject({ status: 'delivered', attempt_count: 1 });
  });

  it('the same account changes, rotates and redelivers a subscription it could have made itself', async () => {
    const moved = await patch(own.id, { url: 'https://hooks.example.com/moved', enabled: true }, manager);
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data.attributes.url).toBe('https://hooks.example.com/moved');
    const rotated = await api.request('POST', `/v3/webhook-subscriptions/${own.id}/rotate-secret`, {
      token: manager,
    });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.data.attributes.secret).toMatch(/^whsec_/);
    const redelivered = await api.request('POST', `/v3/webhook-deliveries/${ownDelivery}/redeliver`, {
      token: manager,
    });
    expect(redelivered.status, redelivered.text).toBe(202);
  });

  it('widening its own subscription to events it may not read is 403, as creating one is', async () => {
    expectRefusal(await patch(own.id, { event_types: ['*'] }, manager), 'Changing this subscription');
  });

  it('the administrator, who reads everything, still changes and rotates the "*" subscription', async () => {
    expect((await patch(wide.id, { description: 'All events' }, token)).status).toBe(200);
    const rotated = await api.request('POST', `/v3/webhook-subscriptions/${wide.id}/rotate-secret`, {
      token,
    });
    expect(rotated.status, rotated.text).toBe(200);
  });
});

describe('a subscription’s deliveries, kept as long as events, listed a page at a time (issue 19)', () => {
  it('a delivery made on day D is listed and counted through the end of day D + 35; a page reads its page and the day counts, not every live delivery', async () => {
    const kept = await newTenant('Webhooks Kept', 0);
    const admin = await api.token(kept.admin);
    const hook = await receiver();
    const { id } = created(
      await subscribe({ url: hook.url, event_types: ['equipment-manufacturer.created'] }, admin, kept.org.id),
    );
    const day = 86_400_000;
    const today = Math.floor(Date.now() / day) * day;
    /** An event of the organisation, delivered by the consumer at `at`: its delivery's id and TTL. */
    const deliverAt = async (at: number, name: string) => {
      const res = await api.request('POST', `/v3/orgs/${kept.org.id}/assets/equipment-manufacturers`, {
        token: admin,
        body: { data: { type: 'equipment-manufacturers', attributes: { name } } },
      });
      expect(res.status, res.text).toBe(201);
      const event = await latestEvent(kept.org.id, 'equipment-manufacturer.created');
      await deliverEvent(event, at);
      const delivery = deliveryId(id, event.id);
      const { Item } = await documents.send(
        new GetCommand({ TableName: tableName, Key: webhookDeliveries.keyOf(kept.org.id, delivery) }),
      );
      return { id: delivery, expires_at: Item?.expires_at };
    };
    const gone = await deliverAt(today - 36 * day + day - 1, 'Gone'); // the last moment of day D − 36
    const last = await deliverAt(today - 35 * day, 'Last'); // the first moment of day D − 35
    expect(gone.expires_at).toBe(today / 1000);
    expect(last.expires_at).toBe((today + day) / 1000);
    const recent: string[] = [];
    for (let i = 5; i >= 0; i--) recent.unshift((await deliverAt(Date.now() - i * 1000, `Now ${i}`)).id);

    const list = `/v3/webhook-subscriptions/${id}/deliveries`;
    // Measured on second sendings: the first of each answer's shape has its links followed (support/api.ts).
    await api.get(`${list}?page[limit]=2`, admin);
    await api.get(`${list}?page[limit]=2&include=subscription`, admin);
    const { result: page, scanned } = await queryScans(
      (pk) => pk.endsWith('#webhook-deliveries'),
      () => api.get(`${list}?page[limit]=2`, admin),
    );
    expect(page.status, page.text).toBe(200);
    expect(page.body.data.map((d: { id: string }) => d.id)).toEqual(recent.slice(0, 2));
    expect(page.body.meta.pagination.counts.resources).toBe(7);
    expect(scanned).toEqual([2]);
    // The subscription read before the page serves an include of it: nothing more is read (and an
    // administrator reads no feature switch, issue 42).
    const { result: included, reads } = await itemsRead(() =>
      api.get(`${list}?page[limit]=2&include=subscription`, admin),
    );
    expect(included.body.included.map((r: { id: string }) => r.id)).toEqual([id]);
    expect(reads.map((r) => r.command).sort()).toEqual([
      'BatchGetItemCommand',
      'GetItemCommand',
      'QueryCommand',
    ]);

    const all = await idsByCursor(api, `${list}?page[limit]=3&page[cursor]=`, admin);
    expect(all).toEqual([...recent, last.id]);
    const oldestFirst = await api.get(`${list}?sort=created_at&page[limit]=1`, admin);
    expect(oldestFirst.body.data.map((d: { id: string }) => d.id)).toEqual([last.id]);
  });
});
