/**
 * Issue 18, item 7: audit entries for every write, derived from the event log. The stream hands each
 * event to the audit consumer, which keeps it for good as an `audit-events` record: the event's id, name,
 * subject, actor and time, and the members of the subject that changed, before and after. Coverage of
 * every write route and resource type is proven on the events walk (events.test.ts); here, what one
 * entry says, and that a redelivered event makes no second entry.
 */
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, historyCounter } from '#functions/audit/audit-events';
import { formerStateKey } from '#functions/audit/consumer';
import { eventResource } from '#functions/events/feed';
import { payloadOf } from '#functions/webhooks/deliveries';
import type { Members } from '#shared/data/changed-members';
import { documents, tableName } from '#shared/data/clients';
import { eventPartition, type StoredEvent, subjectEvents } from '#shared/data/events';
import { uuidv7 } from '#shared/data/ids';
import { getItem } from '#shared/data/repository';
import { counterKey, type ItemKey } from '#shared/data/stored-resource';
import { createServiceAccountClient } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { consume, deliverEvents, latestEvent, streamRecordOf } from '../support/event-stream';
import { itemsRead } from '../support/query-scans';
import { sequentialTrips } from '../support/round-trips';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Audit Org', 0);
  token = await api.token(tenant.admin);
});
afterAll(() => api.close());

const org = () => `/v3/orgs/${tenant.org.id}`;
const auditOf = (subjectId: string) =>
  api.get(`${org()}/audit-events?filter[subject_id]=${subjectId}`, token);

describe('audit entries derived from the events', () => {
  it('a write in an area that never had audit entries (a manufacturer) is audited: what changed, who, when', async () => {
    const created = await api.request('POST', `${org()}/assets/equipment-manufacturers`, {
      token,
      body: {
        data: {
          type: 'equipment-manufacturers',
          attributes: { name: 'Hilti', website: 'https://hilti.example' },
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    const path = `${org()}/assets/equipment-manufacturers/${id}`;
    const renamed = await api.request('PATCH', path, {
      token,
      body: { data: { type: 'equipment-manufacturers', id, attributes: { name: 'Hilti AG' } } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await api.request('DELETE', path, { token })).status).toBe(204);
    // Entries follow the writes through the stream (a few seconds in AWS), not inside their requests.
    expect((await auditOf(id)).body.data).toEqual([]);
    await deliverEvents(tenant.org.id);
    const entries = (await auditOf(id)).body.data;
    expect(entries.map((e: { attributes: { action: string } }) => e.attributes.action)).toEqual([
      'equipment-manufacturer.deleted',
      'equipment-manufacturer.updated',
      'equipment-manufacturer.created',
    ]);
    const [deleted, updated, first] = entries;
    // Each entry is its event, kept: the same id and time.
    const events = await Promise.all(
      ['created', 'updated', 'deleted'].map((action) =>
        latestEvent(tenant.org.id, `equipment-manufacturer.${action}`, id),
      ),
    );
    expect(events.map((e) => e.id)).toEqual([first, updated, deleted].map((e) => e.id));
    const actor = { kind: 'service-account', id: tenant.admin.principalId };
    expect(first.attributes).toEqual({
      action: 'equipment-manufacturer.created',
      occurred_at: events[0]?.occurred_at,
      subject: { type: 'equipment-manufacturers', id },
      actor,
      before: null,
      after: {
        attributes: created.body.data.attributes,
        relationships: expect.any(Object),
      },
    });
    expect(first.relationships.actor_service_account.data.id).toBe(tenant.admin.principalId);
    // An update shows only the members it changed.
    expect(updated.attributes).toMatchObject({
      actor,
      before: { attributes: { name: 'Hilti' } },
      after: { attributes: { name: 'Hilti AG' } },
    });
    expect(Object.keys(updated.attributes.after)).toEqual(['attributes']);
    expect(Object.keys(updated.attributes.after.attributes)).toEqual(['name']);
    // A deletion shows what was deleted.
    expect(deleted.attributes).toMatchObject({
      before: { attributes: { name: 'Hilti AG', website: 'https://hilti.example' } },
      after: null,
    });
    const one = await api.get(`${org()}/audit-events/${updated.id}`, token);
    expect(one.status, one.text).toBe(200);
    expect(one.body.data).toEqual(updated);
  });

  it('an event carries what its write changed as it was (issue 42, item 7), which neither the change feed nor a webhook serves, and the audit keeps nothing per subject', async () => {
    const made = await api.request('POST', `${org()}/assets/equipment-manufacturers`, {
      token,
      body: { data: { type: 'equipment-manufacturers', attributes: { name: 'Was Co' } } },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id as string;
    const path = `${org()}/assets/equipment-manufacturers/${id}`;
    const renamed = await api.request('PATCH', path, {
      token,
      body: { data: { type: 'equipment-manufacturers', id, attributes: { name: 'Was Co Ltd' } } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await api.request('DELETE', path, { token })).status).toBe(204);
    const [created, updated, deleted] = await Promise.all(
      ['created', 'updated', 'deleted'].map((a) =>
        latestEvent(tenant.org.id, `equipment-manufacturer.${a}`, id),
      ),
    );
    expect(created?.was).toBeNull();
    expect(updated?.was).toEqual({ attributes: { name: 'Was Co' } });
    expect(deleted?.was).toMatchObject({
      type: 'equipment-manufacturers',
      id,
      attributes: { name: 'Was Co Ltd' },
    });
    // What the change feed serves of an event, and what a webhook sends: never its `was`.
    for (const event of [created, updated, deleted] as StoredEvent[]) {
      expect(JSON.stringify(eventResource(event))).not.toContain('"was"');
      expect(payloadOf(event)).not.toContain('"was"');
    }
    await deliverEvents(tenant.org.id);
    expect((await auditOf(id)).body.data).toHaveLength(3);
    // No item per subject: only a type whose history a route lists keeps its count.
    expect(await getItem(historyCounter(tenant.org.id, id), true)).toBeNull();
  });

  it('a redelivered event makes no second entry and is counted once', async () => {
    const created = await api.request('POST', `${org()}/assets/vehicles`, {
      token,
      body: { data: { type: 'vehicles', attributes: { registration: 'AU24 DIT' } } },
    });
    expect(created.status, created.text).toBe(201);
    const van = created.body.data.id as string;
    await deliverEvents(tenant.org.id);
    const total = async () =>
      (await api.get(`${org()}/audit-events`, token)).body.meta.pagination.counts.resources as number;
    const before = await total();
    const event = await latestEvent(tenant.org.id, 'vehicle.created', van);
    await consume(streamRecordOf(event));
    await consume(streamRecordOf(event));
    const history = await api.get(`/v3/vehicles/${van}/audit-events`, token);
    expect(history.body.data.map((e: { id: string }) => e.id)).toEqual([event.id]);
    expect(history.body.meta.pagination.counts.resources).toBe(1);
    expect(await total()).toBe(before);
  });

  const newVan = async (registration: string) => {
    const created = await api.request('POST', `${org()}/assets/vehicles`, {
      token,
      body: { data: { type: 'vehicles', attributes: { registration } } },
    });
    expect(created.status, created.text).toBe(201);
    return created.body.data.id as string;
  };
  const recolour = async (van: string, colour: string) => {
    const patch = await api.request('PATCH', `/v3/vehicles/${van}`, {
      token,
      body: { data: { type: 'vehicles', id: van, attributes: { colour } } },
    });
    expect(patch.status, patch.text).toBe(200);
  };
  const put = (item: object) => documents.send(new PutCommand({ TableName: tableName, Item: item }));

  it('an event handed over again after its transaction did not land (the consumer stopped before it) is recorded and counted once, against the version its write replaced', async () => {
    const van = await newVan('AU24 RTY');
    await deliverEvents(tenant.org.id);
    await recolour(van, 'red');
    const total = async () =>
      (await api.get(`${org()}/audit-events`, token)).body.meta.pagination.counts.resources as number;
    const before = await total();
    const keys: ItemKey[] = [historyCounter(tenant.org.id, van), counterKey(tenant.org.id, 'audit-events')];
    const held = await Promise.all(keys.map((key) => getItem<object>(key, true)));
    const event = await latestEvent(tenant.org.id, 'vehicle.updated', van);
    await consume(streamRecordOf(event));
    // The entry and its counts land together or not at all: as if they had not, nothing of the event is there.
    await documents.send(
      new DeleteCommand({ TableName: tableName, Key: auditEvents.keyOf(tenant.org.id, event.id) }),
    );
    for (const item of held) await put(item as object);
    await consume(streamRecordOf(event));
    const history = await api.get(`/v3/vehicles/${van}/audit-events`, token);
    expect(history.body.meta.pagination.counts.resources).toBe(2);
    expect(await total()).toBe(before + 1);
    expect(history.body.data[0].attributes).toMatchObject({
      action: 'vehicle.updated',
      before: { attributes: { colour: null } },
      after: { attributes: { colour: 'red' } },
    });
    // The next change is diffed against the version it replaced: red.
    await recolour(van, 'blue');
    await deliverEvents(tenant.org.id);
    const [latest] = (await api.get(`/v3/vehicles/${van}/audit-events`, token)).body.data;
    expect(latest.attributes).toMatchObject({
      before: { attributes: { colour: 'red' } },
      after: { attributes: { colour: 'blue' } },
    });
  });

  it('an event committed before events carried what they changed (handed over at the deploy) is diffed against the state the consumer kept then, on the history item or in the former item', async () => {
    for (const [registration, where] of [
      ['AU24 OLD', 'history item'],
      ['AU24 FMR', 'former item'],
    ] as const) {
      const van = await newVan(registration);
      await recolour(van, 'green');
      await deliverEvents(tenant.org.id);
      // As the consumer before left it: the subject's members as its last event gave them.
      const green = await latestEvent(tenant.org.id, 'vehicle.updated', van);
      const { attributes, relationships } = green.data as Members;
      const history = historyCounter(tenant.org.id, van);
      const held = (await getItem<object>(history, true)) as object;
      const former = formerStateKey(tenant.org.id, van);
      if (where === 'history item') await put({ ...held, state: { attributes, relationships } });
      else await put({ ...former, org_id: tenant.org.id, state: { attributes, relationships } });
      await recolour(van, 'grey');
      const { was: _was, ...committedBefore } = await latestEvent(tenant.org.id, 'vehicle.updated', van);
      await consume(streamRecordOf(committedBefore as StoredEvent));
      const entries = (await api.get(`/v3/vehicles/${van}/audit-events`, token)).body;
      expect(entries.meta.pagination.counts.resources, where).toBe(3);
      expect(entries.data[0].attributes, where).toMatchObject({
        before: { attributes: { colour: 'green' } },
        after: { attributes: { colour: 'grey' } },
      });
      expect(Object.keys(entries.data[0].attributes.after.attributes), where).toEqual(['colour']);
      await documents.send(new DeleteCommand({ TableName: tableName, Key: former }));
    }
  });

  /** The organisation's count of entries, its entries as listed, and a subject's history (ids, count). */
  const totals = async () => {
    const all = await api.get(`${org()}/audit-events`, token);
    return all.body.meta.pagination.counts.resources as number;
  };
  const historyOf = async (subject: string) => {
    const history = (await api.get(`/v3/vehicles/${subject}/audit-events`, token)).body;
    return {
      ids: history.data.map((e: { id: string }) => e.id) as string[],
      count: history.meta.pagination.counts.resources as number,
    };
  };
  const vehicleEvents = async (van: string) =>
    (
      (
        await documents.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: 'gsi1',
            KeyConditionExpression: 'gsi1pk = :pk',
            ExpressionAttributeValues: { ':pk': subjectEvents(van) },
          }),
        )
      ).Items as StoredEvent[]
    ).sort((a, b) => a.id.localeCompare(b.id));

  it('an event redelivered after a later one of its subject (issue 42) is counted once, for its subject and its organisation', async () => {
    const van = await newVan('AU24 MRK');
    await recolour(van, 'red');
    await recolour(van, 'blue');
    await deliverEvents(tenant.org.id);
    const [, red, blue] = await vehicleEvents(van);
    const before = { total: await totals(), history: await historyOf(van) };
    expect(before.history.count).toBe(3);
    // A batch retried from the red event, or the poller and a direct delivery overlapping.
    for (const event of [red, blue, red]) await consume(streamRecordOf(event as StoredEvent));
    expect(await totals()).toBe(before.total);
    expect(await historyOf(van)).toEqual(before.history);
  });

  it('an event first handed over after a later one of its subject (issue 42, item 7: a replayed dead letter) is recorded with what its own write changed, and counted once', async () => {
    const van = await newVan('AU24 OOO');
    await deliverEvents(tenant.org.id);
    await recolour(van, 'red');
    await recolour(van, 'blue');
    const [created, red, blue] = (await vehicleEvents(van)) as StoredEvent[];
    const before = await totals();
    await consume(streamRecordOf(blue as StoredEvent));
    await consume(streamRecordOf(red as StoredEvent));
    // Each entry is its event's own change, whatever came first: not blue → red.
    expect(await historyOf(van)).toEqual({ ids: [blue?.id, red?.id, created?.id], count: 3 });
    const entry = async (id: string | undefined) =>
      (await api.get(`${org()}/audit-events/${id}`, token)).body.data.attributes;
    expect(await entry(red?.id)).toMatchObject({
      before: { attributes: { colour: null } },
      after: { attributes: { colour: 'red' } },
    });
    expect(await entry(blue?.id)).toMatchObject({
      before: { attributes: { colour: 'red' } },
      after: { attributes: { colour: 'blue' } },
    });
    expect(await totals()).toBe(before + 2);
    await deliverEvents(tenant.org.id);
    expect(await totals()).toBe(before + 2);
  });

  it('two deliveries of one event at once (issue 42) write one entry and count it once', async () => {
    const van = await newVan('AU24 TWO');
    await deliverEvents(tenant.org.id);
    await recolour(van, 'teal');
    const before = await totals();
    const event = await latestEvent(tenant.org.id, 'vehicle.updated', van);
    // Both made the entry before either committed it: only the entry's condition tells them apart.
    await Promise.all([consume(streamRecordOf(event)), consume(streamRecordOf(event))]);
    expect((await historyOf(van)).count).toBe(2);
    expect(await totals()).toBe(before + 1);
  });

  it('a batch’s subjects recorded side by side (issue 42): every count exact, each subject’s diffs in its order', async () => {
    await deliverEvents(tenant.org.id);
    const before = await totals();
    const vans = await Promise.all(['AU24 PA1', 'AU24 PA2', 'AU24 PA3', 'AU24 PA4', 'AU24 PA5'].map(newVan));
    const colours = ['red', 'green', 'blue'];
    // Interleaved: one batch holds every van's events, each van's in its order.
    for (const colour of colours) await Promise.all(vans.map((van) => recolour(van, colour)));
    expect(await deliverEvents(tenant.org.id)).toBe(vans.length * 4);
    expect(await totals()).toBe(before + vans.length * 4);
    for (const van of vans) {
      const history = (await api.get(`/v3/vehicles/${van}/audit-events`, token)).body;
      expect(history.meta.pagination.counts.resources).toBe(4);
      const changes = history.data
        .slice(0, 3)
        .map((e: { attributes: { before: Members; after: Members } }) => [
          e.attributes.before.attributes?.colour,
          e.attributes.after.attributes?.colour,
        ]);
      expect(changes).toEqual([
        ['green', 'blue'],
        ['red', 'green'],
        [null, 'red'],
      ]);
    }
  });

  it('a change too large to keep both sides of names the members it changed', async () => {
    const subject = { type: 'locations', id: uuidv7() };
    const event = (name: string, notes: string, was: StoredEvent['was']): StoredEvent => {
      const id = uuidv7();
      return {
        pk: eventPartition(tenant.org.id),
        sk: id,
        gsi1pk: subjectEvents(subject.id),
        gsi1sk: id,
        id,
        org_id: tenant.org.id,
        event: `location.${name}`,
        subject,
        actor: { kind: 'system', id: 'test' },
        occurred_at: new Date().toISOString(),
        data: { ...subject, attributes: { name: 'Depot', notes }, relationships: {}, meta: {} },
        was,
        expires_at: Math.floor(Date.now() / 1000) + 3600,
      };
    };
    // Each side alone fits an item (as its event did); both together do not.
    const [created, updated] = [
      event('created', 'a'.repeat(250_000), null),
      event('updated', 'b'.repeat(250_000), { attributes: { notes: 'a'.repeat(250_000) } }),
    ];
    await consume(streamRecordOf(created));
    await consume(streamRecordOf(updated));
    const entries = (await auditOf(subject.id)).body.data;
    expect(entries.map((e: { id: string }) => e.id)).toEqual([updated.id, created.id]);
    expect(entries[0].attributes).toMatchObject({ before: null, after: null, omitted: ['attributes.notes'] });
    expect(entries[1].attributes.after.attributes.notes).toHaveLength(250_000);
  });
});

describe('a record’s history, a page at a time (issue 19: no lookup in every organisation)', () => {
  it('GET /v3/vehicles/{id}/audit-events reads the page beside the vehicle and its counter, in the organisation its id directory entry names: one BatchGetItem of 2 keys for a caller of two organisations, one round trip after the credentials (issue 42)', async () => {
    const other = await newTenant('Audit Other Org', 0);
    const both = await api.token(
      await createServiceAccountClient('Audit both', [
        { org_id: tenant.org.id, role: 'viewer' },
        { org_id: other.org.id, role: 'viewer' },
      ]),
    );
    const created = await api.request('POST', `${org()}/assets/vehicles`, {
      token,
      body: { data: { type: 'vehicles', attributes: { registration: 'AU24 PGE' } } },
    });
    expect(created.status, created.text).toBe(201);
    const van = created.body.data.id as string;
    for (const make of ['Ford', 'Iveco', 'Volvo']) {
      const patch = await api.request('PATCH', `/v3/vehicles/${van}`, {
        token,
        body: { data: { type: 'vehicles', id: van, attributes: { make } } },
      });
      expect(patch.status, patch.text).toBe(200);
    }
    await deliverEvents(tenant.org.id);
    const newestFirst = (
      await api.get(`/v3/vehicles/${van}/audit-events?page[limit]=10`, token)
    ).body.data.map((e: { id: string }) => e.id);
    expect(newestFirst).toHaveLength(4);

    const { result: page, reads } = await itemsRead(() =>
      api.get(`/v3/vehicles/${van}/audit-events?page[limit]=2`, both),
    );
    expect(page.status, page.text).toBe(200);
    expect(page.body.data.map((e: { id: string }) => e.id)).toEqual(newestFirst.slice(0, 2));
    expect(page.body.meta.pagination.counts.resources).toBe(4);
    // The vehicle's id directory entry rides with the credentials (issue 42, item 2): a key, no round trip.
    // It names the organisation, so the Query and the vehicle's read go out together.
    expect(reads.map((r) => [r.command, r.items, r.asked])).toEqual([
      ['BatchGetItemCommand', 1, 1],
      ['QueryCommand', 2, undefined],
      ['BatchGetItemCommand', 2, 2],
    ]);
    expect(sequentialTrips(reads), JSON.stringify(reads)).toBe(2);
    const oldest = await api.get(`/v3/vehicles/${van}/audit-events?sort=created_at&page[limit]=1`, both);
    expect(oldest.body.data.map((e: { id: string }) => e.id)).toEqual(newestFirst.slice(-1));
    // Not in the caller's organisations: 404, as if absent.
    const outsider = await api.token(other.admin);
    expect((await api.get(`/v3/vehicles/${van}/audit-events`, outsider)).status).toBe(404);
  });

  it('a deleted vehicle’s history is 404 with none of its entries, though they are kept and in the caller’s organisation: the page read beside the vehicle is not answered without it (issue 42)', async () => {
    const other = await newTenant('Audit Deleted Other', 0);
    const both = await api.token(
      await createServiceAccountClient('Audit deleted both', [
        { org_id: tenant.org.id, role: 'viewer' },
        { org_id: other.org.id, role: 'viewer' },
      ]),
    );
    const created = await api.request('POST', `${org()}/assets/vehicles`, {
      token,
      body: { data: { type: 'vehicles', attributes: { registration: 'AU24 DEL' } } },
    });
    expect(created.status, created.text).toBe(201);
    const van = created.body.data.id as string;
    await deliverEvents(tenant.org.id);
    const path = `/v3/vehicles/${van}/audit-events`;
    expect((await api.get(path, token)).body.data).toHaveLength(1);
    expect((await api.get(path, both)).body.data).toHaveLength(1);
    expect((await api.request('DELETE', `/v3/vehicles/${van}`, { token })).status).toBe(204);
    await deliverEvents(tenant.org.id);
    // The entries stay (the organisation's log lists them), filed under the vehicle.
    expect((await auditOf(van)).body.data).toHaveLength(2);
    // A caller in one organisation reads the page beside the vehicle; a caller in two, whose vehicle has
    // no directory entry any more, reads the page first: neither answers it.
    for (const caller of [token, both]) {
      const { result: gone, reads } = await itemsRead(() => api.get(path, caller));
      expect(gone.status, gone.text).toBe(404);
      expect(gone.body.data).toBeUndefined();
      expect(gone.text).not.toContain('vehicle.created');
      expect(reads.map((r) => r.command)).toContain('QueryCommand');
    }
  });
});
