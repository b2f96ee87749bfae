/**
 * Issue 42, item 7: an event's `data`, an audit entry's whole sides and a subject's audit state are
 * stored without the record's empty relationships (an equipment item's 17, most of them empty, took half
 * of its event's kilobyte: a write unit more, twice in a transaction), and given back from the type's
 * declaration wherever they are read, so the change feed, webhooks and the audit log serve the record as
 * presented, byte for byte. Items stored before, with their empties, read the same.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, historyCounter } from '#functions/audit/audit-events';
import { payloadOf } from '#functions/webhooks/deliveries';
import { documents, tableName } from '#shared/data/clients';
import { readableEvent, type StoredEvent, subjectEvents } from '#shared/data/events';
import { getItem } from '#shared/data/repository';
import { checkItem } from '#shared/data/storage-limits';
import type { StoredResource } from '#shared/data/stored-resource';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;

const org = () => `/v3/orgs/${tenant.org.id}`;
type Relationships = Record<string, { data: unknown }>;

const isEmpty = (r: { data: unknown }) => r.data === null || (Array.isArray(r.data) && r.data.length === 0);
const emptiesIn = (relationships: Relationships) => Object.values(relationships).filter(isEmpty).length;

/** The subject's events as stored, oldest first. */
const storedEvents = async (subjectId: string) =>
  ((
    await documents.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': subjectEvents(subjectId) },
      }),
    )
  ).Items ?? []) as StoredEvent[];

/** The change feed's events about the subject, as served. */
/** The subject's events as the change feed serves them, once they have settled (EVENT_FEED_SETTLE_SECONDS). */
const fedEvents = (subjectId: string) =>
  vi.waitFor(async () => {
    const fed = (await api.get(`${org()}/events?filter[subject_id]=${subjectId}`, token)).body.data as {
      id: string;
      attributes: { data: { relationships: Relationships } };
    }[];
    expect(fed.length).toBeGreaterThan(0);
    return fed;
  }, 10_000);

const auditOf = async (subjectId: string) =>
  (await api.get(`${org()}/audit-events?filter[subject_id]=${subjectId}`, token)).body.data as {
    id: string;
    attributes: { before: { relationships?: Relationships } | null; after: unknown };
  }[];

let equipmentId: string;
/** The record's relationships as a GET presents them. */
let presented: Relationships;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Stored Presentations Org', 0);
  token = await api.token(tenant.admin);
  const created = await api.request('POST', `${org()}/assets/equipment`, {
    token,
    body: { data: { type: 'equipment-items', attributes: { serial: 'SP-1', description: 'Rotary hammer' } } },
  });
  expect(created.status, created.text).toBe(201);
  equipmentId = created.body.data.id;
  presented = (await api.get(`${org()}/assets/equipment/${equipmentId}`, token)).body.data.relationships;
  await deliverEvents(tenant.org.id);
});
afterAll(() => api.close());

describe('events are stored without empty relationships and read with them (issue 42, item 7)', () => {
  it('the premise: an equipment item presents most of its relationships empty', () => {
    expect(emptiesIn(presented)).toBeGreaterThanOrEqual(10);
  });

  it('a create’s event is stored without them, under a kilobyte', async () => {
    const [stored] = await storedEvents(equipmentId);
    const data = stored?.data as { relationships: Relationships };
    expect(emptiesIn(data.relationships)).toBe(0);
    expect(checkItem(marshall(stored, { removeUndefinedValues: true }))).toBeLessThan(1024);
  });

  it('the change feed and a webhook’s payload carry the record’s relationships as presented, in order', async () => {
    const [fed] = await fedEvents(equipmentId);
    expect(JSON.stringify(fed?.attributes.data.relationships)).toBe(JSON.stringify(presented));
    const [stored] = await storedEvents(equipmentId);
    const payload = JSON.parse(payloadOf(readableEvent(stored as StoredEvent)));
    expect(JSON.stringify(payload.data.attributes.data.relationships)).toBe(JSON.stringify(presented));
  });

  it('an event stored with its empty relationships (before this) is served the same', async () => {
    const [fed] = await fedEvents(equipmentId);
    const [stored] = await storedEvents(equipmentId);
    const before = JSON.stringify(fed);
    // The item as it was written before: the record as presented, empties and all.
    await documents.send(
      new PutCommand({ TableName: tableName, Item: { ...stored, data: fed?.attributes.data } }),
    );
    const [again] = await fedEvents(equipmentId);
    expect(JSON.stringify(again)).toBe(before);
    const [old] = await storedEvents(equipmentId);
    expect(payloadOf(readableEvent(old as StoredEvent))).toBe(
      payloadOf(readableEvent(stored as StoredEvent)),
    );
  });
});

describe('audit entries are stored without empty relationships and served with them (issue 42, item 7)', () => {
  it('a creation’s entry is stored without them and served with them, in order', async () => {
    const [entry] = await auditOf(equipmentId);
    const after = entry?.attributes.after as { relationships: Relationships };
    expect(JSON.stringify(after.relationships)).toBe(JSON.stringify(presented));
    const stored = await getItem<StoredResource>(auditEvents.keyOf(tenant.org.id, entry?.id ?? ''));
    const storedAfter = stored?.attributes.after as { relationships: Relationships } | undefined;
    expect(emptiesIn(storedAfter?.relationships ?? presented)).toBe(0);
    expect(checkItem(marshall(stored, { removeUndefinedValues: true }))).toBeLessThan(1024);
    const history = await getItem<{ state: { relationships: Relationships } }>(
      historyCounter(tenant.org.id, equipmentId),
    );
    expect(emptiesIn(history?.state.relationships ?? {})).toBe(0);
  });

  it('an entry stored with its empty relationships (before this) is served the same', async () => {
    const [entry] = await auditOf(equipmentId);
    const served = await api.get(`${org()}/audit-events/${entry?.id}`, token);
    const stored = await getItem<StoredResource>(auditEvents.keyOf(tenant.org.id, entry?.id ?? ''));
    await documents.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...stored, attributes: { ...stored?.attributes, after: served.body.data.attributes.after } },
      }),
    );
    const again = await api.get(`${org()}/audit-events/${entry?.id}`, token);
    expect(JSON.stringify(again.body.data)).toBe(JSON.stringify(served.body.data));
  });

  it('an update’s entry shows only what changed: the state kept without empties is whole again for the diff', async () => {
    const path = `${org()}/assets/equipment/${equipmentId}`;
    const patched = await api.request('PATCH', path, {
      token,
      body: {
        data: { type: 'equipment-items', id: equipmentId, attributes: { description: 'Hammer drill' } },
      },
    });
    expect(patched.status, patched.text).toBe(200);
    expect((await api.request('DELETE', path, { token })).status).toBe(204);
    await deliverEvents(tenant.org.id);
    const [deleted, updated] = await auditOf(equipmentId);
    expect(updated?.attributes).toMatchObject({
      before: { attributes: { description: 'Rotary hammer' } },
      after: { attributes: { description: 'Hammer drill' } },
    });
    expect(updated?.attributes.before).not.toHaveProperty('relationships');
    // A deletion's entry shows the whole record before, its relationships as presented.
    expect(JSON.stringify(deleted?.attributes.before?.relationships)).toBe(JSON.stringify(presented));
  });
});
