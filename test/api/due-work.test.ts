/**
 * Work due later (issue 40, item 6): one runner serves every kind the areas declare (a job whose start was
 * lost, a webhook retry, an attendance's sign-out at closing time, in one run), and recurring entries (an
 * RFC 5545 RRULE in an IANA zone) run at their local time across a DST change, once for all the
 * occurrences a stopped runner missed, and never once removed with their record. Entries a deployed table
 * holds in the shapes before the due index are carried over by the runner and run, each once. The
 * runner's clock is moved by the test; nothing sleeps for it.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadDueWork, runDue } from '#functions/due-work/run';
import { siteAttendances } from '#functions/site-attendances/definitions';
import { webhookDeliveries } from '#functions/webhooks/definitions';
import { deliverEvent } from '#functions/webhooks/deliveries';
import { documents, tableName } from '#shared/data/clients';
import { type DueEntry, dueEntries, dueEntryOp, dueKeys, removeDueEntryOp } from '#shared/data/due-work';
import { carryOverFormerDueEntries } from '#shared/data/former-due-entries';
import { jobStateKey } from '#shared/data/job-keys';
import { recurringEntry, retireOps } from '#shared/data/recurring-entries';
import { scopeOf, systemActor } from '#shared/data/scope';
import type { ItemKey } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { type DueWorkKind, dueWorkKind } from '#shared/engine/due-work-kind';
import { runDueWork } from '#shared/engine/due-work-runner';
import { dueWorkKinds } from '#shared/routes';
import { startTestApi, type TestApi } from '../support/api';
import { latestEvent } from '../support/event-stream';
import { formerDeliveryDueKeys, formerJobDueKeys, formerScheduleEntry } from '../support/former-due-shapes';
import { finished, startJobWorkers, watchJob } from '../support/job-workers';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
let workers: Awaited<ReturnType<typeof startJobWorkers>>;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Due Work Org', 0);
  token = await api.token(tenant.admin);
  workers = await startJobWorkers();
}, 60_000);
afterAll(async () => {
  await workers?.stop();
  await api?.close();
});

/**
 * One entry of each of three kinds, in `org`: a location import whose start is lost, a webhook delivery
 * whose first attempt met a 500 (its receiver answers 200 from then on), an attendance open at a site.
 */
const dueOfEveryKind = async (org: Tenant, token: string) => {
  const post = (path: string, body: object) => api.request('POST', path, { token, body });
  // A job (an import past the inline limit): its `job.created` event is never handed to the consumer
  // here, so no worker starts it, as when its start is lost.
  const rows = Array.from({ length: 2000 }, (_, i) => `DW-${i},Depot ${i},${i} Long Lane, Leeds`);
  const job = await post(`/v3/orgs/${org.org.id}/governance/location-imports`, {
    data: { type: 'location-imports', attributes: { csv: ['reference,name,address', ...rows].join('\n') } },
  });
  expect(job.status, job.text).toBe(202);
  const jobId = job.body.data.id as string;
  // A webhook delivery whose first attempt met a 500.
  const { createServer } = await import('node:http');
  const answers = [500];
  const received: number[] = [];
  const receiver = createServer((_req, res) => {
    const status = answers.shift() ?? 200;
    received.push(status);
    res.writeHead(status).end();
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const { port } = receiver.address() as { port: number };
  const subscription = await post(`/v3/orgs/${org.org.id}/webhook-subscriptions`, {
    data: {
      type: 'webhook-subscriptions',
      attributes: { url: `http://127.0.0.1:${port}/hooks`, event_types: ['location.created'] },
    },
  });
  expect(subscription.status, subscription.text).toBe(201);
  const site = await post(`/v3/orgs/${org.org.id}/governance/locations`, {
    data: { type: 'locations', attributes: { name: 'Gate house' } },
  });
  expect(site.status, site.text).toBe(201);
  await deliverEvent(await latestEvent(org.org.id, 'location.created', site.body.data.id));
  expect(received).toEqual([500]);
  // An attendance open at the site: due to be signed out at the site's closing time.
  const attendance = await post(`/v3/orgs/${org.org.id}/site-attendances`, {
    data: {
      type: 'site-attendances',
      attributes: { method_in: 'kiosk', attendee_kind: 'visitor', guest: { name: 'A visitor' } },
      relationships: { location: { data: { type: 'locations', id: site.body.data.id } } },
    },
  });
  expect(attendance.status, attendance.text).toBe(201);
  const close = () => new Promise<void>((done) => receiver.close(() => done()));
  return { jobId, subscription, site, attendance, received, close };
};

describe('one runner, every kind', () => {
  it('one run restarts a job whose start was lost, retries a webhook delivery and signs out an attendance at closing time', async () => {
    const { jobId, subscription, attendance, received, close } = await dueOfEveryKind(tenant, token);

    // A day on: the job's lease, the delivery's retry and the closing time have all passed.
    const run = await runDue(Date.now() + 25 * 3_600_000, { orgId: tenant.org.id });
    expect(run.byKind).toEqual({
      'job-restart': { ran: 1, failed: 0 },
      'webhook-delivery': { ran: 1, failed: 0 },
      'site-attendance-closing': { ran: 1, failed: 0 },
    });
    const seen = await watchJob(api, token, jobId, finished);
    expect(seen.at(-1)?.body.data.attributes.status).toBe('succeeded');
    expect(received).toEqual([500, 200]);
    const deliveries = await api.get(
      `/v3/webhook-subscriptions/${subscription.body.data.id}/deliveries`,
      token,
    );
    expect(deliveries.body.data[0].attributes).toMatchObject({ status: 'delivered', attempt_count: 2 });
    const signedOut = await api.get(`/v3/site-attendances/${attendance.body.data.id}`, token);
    expect(signedOut.body.data.attributes.method_out).toBe('auto');
    expect(signedOut.body.data.meta.on_site).toBe(false);
    await close();
  }, 60_000);

  it('every kind an area declares has one name and is registered once', () => {
    const names = dueWorkKinds.map((kind) => kind.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual([
      'job-restart',
      'notification-ack-escalation',
      'notification-digest',
      'qualification-award-expiry',
      'site-attendance-closing',
      'webhook-delivery',
    ]);
  });
});

describe('recurring entries', () => {
  /** A kind for these tests alone: each run retires its occurrence and is noted. */
  const runs: { id: string; due: string }[] = [];
  const probe = dueWorkKind('test-probe', { module: 'test/api/due-work.test.ts', run: 'probe' });
  const probeWork = async (entry: DueEntry, now: number) => {
    await commit(scopeOf([entry.org_id], undefined, systemActor('test')), await retireOps(entry, now));
    runs.push({ id: entry.id, due: entry.due });
  };
  const load = (kind: DueWorkKind) => (kind === probe ? Promise.resolve(probeWork) : loadDueWork(kind));
  /** Each test's entries are in an organisation of their own, so a run at its time takes only them. */
  let orgId = '';
  beforeEach(() => {
    orgId = randomUUID();
  });
  const run = (at: string) => runDueWork([...dueWorkKinds, probe], load, Date.parse(at), { orgId });
  const scope = () => scopeOf([orgId]);
  /** A record (any item of the organisation) and its recurring entry, committed together. */
  const withEntry = async (rule: string, from: string) => {
    const id = randomUUID();
    const record = { pk: `ORG#${orgId}#test-records`, sk: id, org_id: orgId };
    const entry = await recurringEntry('test-probe', orgId, id, rule, Date.parse(from));
    if (!entry) throw new Error('no occurrence');
    await commit(scope(), [{ put: record }, dueEntryOp(entry)]);
    return { id, record, entry };
  };
  const runsOf = (id: string) => runs.filter((r) => r.id === id).map((r) => r.due);

  it('a daily 07:00 Europe/London entry runs at 07:00 local on both sides of the DST change (06:00Z, then 07:00Z)', async () => {
    const { id } = await withEntry(
      'DTSTART;TZID=Europe/London:20261023T070000\nRRULE:FREQ=DAILY',
      '2026-10-23T00:00:00Z',
    );
    expect((await run('2026-10-23T05:59:00Z')).ran).toBe(0);
    await run('2026-10-23T06:00:00Z');
    await run('2026-10-24T06:00:00Z');
    // Clocks go back at 01:00Z on 25 October: 06:00Z is 06:00 local, an hour early.
    expect((await run('2026-10-25T06:00:00Z')).ran).toBe(0);
    await run('2026-10-25T07:00:00Z');
    expect(runsOf(id)).toEqual([
      '2026-10-23T06:00:00.000Z',
      '2026-10-24T06:00:00.000Z',
      '2026-10-25T07:00:00.000Z',
    ]);
  });

  it('a runner that missed occurrences runs the entry once, then at its next occurrence after the run', async () => {
    const { id } = await withEntry(
      'DTSTART;TZID=Europe/London:20261102T070000\nRRULE:FREQ=MINUTELY',
      '2026-11-02T07:00:00Z',
    );
    // 90 minutes without a run: one run, not 90.
    expect((await run('2026-11-02T08:30:00Z')).byKind['test-probe']).toEqual({ ran: 1, failed: 0 });
    expect((await run('2026-11-02T08:30:30Z')).ran).toBe(0);
    expect((await run('2026-11-02T08:31:00Z')).ran).toBe(1);
    expect(runsOf(id)).toEqual(['2026-11-02T07:00:00.000Z', '2026-11-02T08:31:00.000Z']);
  });

  it('an entry removed with its record does not run', async () => {
    const { id, record, entry } = await withEntry(
      'DTSTART;TZID=Europe/London:20261103T070000\nRRULE:FREQ=DAILY',
      '2026-11-03T00:00:00Z',
    );
    await commit(scope(), [{ remove: { pk: record.pk, sk: record.sk } }, removeDueEntryOp(entry)]);
    expect((await run('2026-11-10T12:00:00Z')).ran).toBe(0);
    expect(runsOf(id)).toEqual([]);
  });

  it('refuses a rule without an IANA time zone', async () => {
    await expect(
      recurringEntry('test-probe', orgId, randomUUID(), 'DTSTART:20261103T070000\nRRULE:FREQ=DAILY', 0),
    ).rejects.toThrow(/TZID/);
    await expect(
      recurringEntry(
        'test-probe',
        orgId,
        randomUUID(),
        'DTSTART;TZID=Europe/Nowhere:20261103T070000\nRRULE:FREQ=DAILY',
        0,
      ),
    ).rejects.toThrow();
  });
});

describe('entries in the shapes before the one due index', () => {
  const item = async (Key: ItemKey) =>
    (await documents.send(new GetCommand({ TableName: tableName, Key, ConsistentRead: true }))).Item ?? {};
  const setKeys = (Key: ItemKey, values: Record<string, unknown>) =>
    documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key,
        UpdateExpression: `SET ${Object.keys(values)
          .map((name) => `${name} = :${name}`)
          .join(', ')}`,
        ExpressionAttributeValues: Object.fromEntries(Object.entries(values).map(([n, v]) => [`:${n}`, v])),
      }),
    );
  /** When an item's index key says it is due. */
  const dueOf = (indexKey: unknown) => Date.parse(String(indexKey).split('#')[0] ?? '');

  it('a deployed table’s pending job restart, webhook retry and closing-time sign-out, written in their former shapes, run once the runner carries them over', async () => {
    const org = await newTenant('Due Work Former Shapes Org', 0);
    const orgToken = await api.token(org.admin);
    const { jobId, subscription, attendance, received, close } = await dueOfEveryKind(org, orgToken);
    const orgId = org.org.id;
    // Each entry rewritten as the code before the due index wrote it (test/support/former-due-shapes.ts).
    const state = await item(jobStateKey(jobId));
    await setKeys(jobStateKey(jobId), formerJobDueKeys(jobId, dueOf(state.gsi1sk)));
    const listed = await api.get(
      `/v3/webhook-subscriptions/${subscription.body.data.id}/deliveries`,
      orgToken,
    );
    const deliveryKey = webhookDeliveries.keyOf(orgId, listed.body.data[0].id);
    const delivery = await item(deliveryKey);
    await setKeys(deliveryKey, formerDeliveryDueKeys(String(delivery.id), dueOf(delivery.gsi1sk)));
    const attendanceKey = siteAttendances.keyOf(orgId, attendance.body.data.id);
    const { schedule } = (await item(attendanceKey)) as { schedule: ItemKey };
    const entry = (await item(schedule)) as DueEntry;
    const former = formerScheduleEntry(entry.kind, orgId, entry.id, Date.parse(entry.due), entry.data);
    await documents.send(new DeleteCommand({ TableName: tableName, Key: schedule }));
    await documents.send(new PutCommand({ TableName: tableName, Item: former }));
    await setKeys(attendanceKey, { schedule: { pk: former.pk, sk: former.sk } });
    const later = Date.now() + 25 * 3_600_000;
    // Without the carry-over the due index holds none of them: they would never run.
    expect(await dueEntries(later, 100, { orgId })).toEqual([]);

    const run = await runDue(later, { orgId });
    expect(run.carriedOver).toBe(3);
    expect(run.byKind).toEqual({
      'job-restart': { ran: 1, failed: 0 },
      'webhook-delivery': { ran: 1, failed: 0 },
      'site-attendance-closing': { ran: 1, failed: 0 },
    });
    const seen = await watchJob(api, orgToken, jobId, finished);
    expect(seen.at(-1)?.body.data.attributes.status).toBe('succeeded');
    expect(received).toEqual([500, 200]);
    const deliveries = await api.get(
      `/v3/webhook-subscriptions/${subscription.body.data.id}/deliveries`,
      orgToken,
    );
    expect(deliveries.body.data[0].attributes).toMatchObject({ status: 'delivered', attempt_count: 2 });
    const signedOut = await api.get(`/v3/site-attendances/${attendance.body.data.id}`, orgToken);
    expect(signedOut.body.data.attributes).toMatchObject({
      method_out: 'auto',
      signed_out_at: new Date(Date.parse(entry.due)).toISOString(),
    });
    // Idempotent: nothing is left in a former shape, and nothing runs twice.
    const again = await runDue(later, { orgId });
    expect(again, JSON.stringify(again)).toMatchObject({ carriedOver: 0, ran: 0 });
    await close();
  }, 60_000);

  it('two runners carrying over at once move each former entry once (the old item taken on condition it is still there)', async () => {
    const orgId = randomUUID();
    const recordId = randomUUID();
    const at = Date.parse('2099-01-01T17:00:00Z');
    const schedule = formerScheduleEntry('site-attendance-closing', orgId, recordId, at);
    const delivery = { pk: `ORG#${orgId}#test-records`, sk: recordId, org_id: orgId, id: recordId };
    await documents.send(new PutCommand({ TableName: tableName, Item: schedule }));
    await documents.send(
      new PutCommand({ TableName: tableName, Item: { ...delivery, ...formerDeliveryDueKeys(recordId, at) } }),
    );

    const moved = await Promise.all([
      carryOverFormerDueEntries({ orgId }),
      carryOverFormerDueEntries({ orgId }),
    ]);
    expect(moved[0] + moved[1]).toBe(2);
    const entries = await documents.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `ORG#${orgId}#due-work` },
      }),
    );
    expect(entries.Items?.map((i) => i.sk)).toEqual([schedule.sk]);
    expect(await item({ pk: schedule.pk, sk: schedule.sk })).toEqual({});
    expect(await item({ pk: delivery.pk, sk: delivery.sk })).toMatchObject(
      dueKeys('webhook-delivery', recordId, at),
    );
    await commit(scopeOf([orgId]), [
      removeDueEntryOp({ pk: `ORG#${orgId}#due-work`, sk: schedule.sk }),
      { remove: { pk: delivery.pk, sk: delivery.sk } },
    ]);
  });
});
