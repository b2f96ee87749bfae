/**
 * Events: an outbox in the table. Every write that changes a record commits an event item in the same
 * TransactWriteItems (`transaction.ts` derives them from the ops), so there is no change without its
 * event and no event without its change. Each resource type declares, once, the name its events go by
 * and the actions its writes may name (`declareEvents`, called by `defineResource`); a record of a type
 * that declared nothing cannot be written.
 *
 * Items live in one partition per organisation, `EVENTS#<org_id>`, sorted by id (UUIDv7, so by time),
 * and on `gsi1` by subject; they expire after 35 days. The change feed reads them in order; the table's
 * stream carries them to consumers (webhooks). An event's `data` is stored without the record's empty
 * relationships, and every reader here (`readEvents`, `streamEvents`, `readableEvent`) gives them back.
 */

import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { declareAccessPatterns, partitionFrom } from './access-patterns';
import { changedMembers } from './changed-members';
import { documents, tableName } from './clients';
import {
  type RelationshipShape,
  withEmptyRelationships,
  withoutEmptyRelationships,
} from './empty-relationships';
import { uuidv7 } from './ids';
import type { Actor, Scope } from './scope';
import { inScope } from './scope';
import type { StoredResource } from './stored-resource';

export const EVENT_RETENTION_DAYS = 35;

/** The actions every type has; a type may declare more of its own (`vehicle.allocated`). */
export const LIFECYCLE_ACTIONS = ['created', 'updated', 'deleted'] as const;

export interface EventSource {
  /** The events' prefix: `vehicle` in `vehicle.allocated`. */
  name: string;
  /** Every action its writes may name: the lifecycle ones and its own. */
  actions: readonly string[];
  /** The record as the API shows it, without links (they depend on where the API is reached). */
  present: (record: StoredResource) => object;
  /** Its declared relationships, which a presented record is stored without the empty ones of. */
  relationships: RelationshipShape;
}

/** By record type; null for types whose changes are not events (internal state, audit entries). */
const sources = new Map<string, EventSource | null>();

export const declareEvents = (type: string, source: EventSource | null): void => {
  sources.set(type, source);
};

/** A type's relationships; a type not declared where not every declaration is loaded is a fault of the bundle. */
const shapeOf = (type: unknown) => {
  if (typeof type !== 'string') return undefined;
  if (sources.has(type)) return sources.get(type)?.relationships;
  if (!everyTypeDeclared && !described)
    throw new Error(`a ${type} is presented where its declaration is not loaded: load shared/routes.ts`);
  return everySource().get(type)?.relationships;
};
const typeOf = (record: object) => (record as { type?: unknown }).type;

/**
 * A record as presented (of `type`, by default its own), as events and audit entries store it: without its
 * empty relationships (data/empty-relationships.ts). Kept as it is when no declaration says its shape.
 */
export const storedPresentation = <Presented extends object>(record: Presented, type = typeOf(record)) => {
  const shape = shapeOf(type);
  return shape ? withoutEmptyRelationships(shape, record) : record;
};

/** A presented record as stored, with its empty relationships given back: the record as it was presented. */
export const readPresentation = <Presented extends object>(record: Presented, type = typeOf(record)) => {
  const shape = shapeOf(type);
  return shape ? withEmptyRelationships(shape, record) : record;
};

/** An event item as read from the table or the stream: its `data` as presented. */
export const readableEvent = (event: StoredEvent): StoredEvent => ({
  ...event,
  data: readPresentation(event.data),
});

/**
 * Set by the composition root once every area's declarations are loaded. An area function loads those
 * its routes reach only (`http/served-table.ts`), where a list of every event would silently lack some:
 * asking for it there is a fault of the bundle, never a shorter answer.
 */
let everyTypeDeclared = false;
export const everyEventSourceDeclared = (): void => {
  everyTypeDeclared = true;
};

/** What a type's events are called and its relationships' shape: an event source without its presenter. */
type DescribedSource = Pick<EventSource, 'name' | 'actions' | 'relationships'>;

/**
 * Every type's event source as data: `[type, name, actions, relationships]` for each type whose changes are
 * events (a type whose are not, or one never declared, has none alike).
 */
export type EventCatalogue = readonly (readonly [
  type: string,
  name: string,
  actions: readonly string[],
  relationships: RelationshipShape,
])[];

/**
 * Every type's event source as the declarations describe them, carried as build-time data by the entry of
 * an area function whose routes read every event (the feed, webhook subscriptions, the audit log's records
 * of any type) without loading every declaration: `infra/area-bundle.ts` makes it with `eventCatalogue()`
 * where the composition root is loaded, so the two never disagree.
 */
let described: ReadonlyMap<string, DescribedSource> | undefined;
export const describeEveryEventSource = (catalogue: EventCatalogue): void => {
  described = new Map(
    catalogue.map(([type, name, actions, relationships]) => [type, { name, actions, relationships }]),
  );
};

const everySource = (): ReadonlyMap<string, DescribedSource | null> => {
  if (everyTypeDeclared) return sources;
  if (described) return described;
  throw new Error('every event is asked for where not every declaration is loaded: load shared/routes.ts');
};

/** Every type's event source as data, for an area function's entry (`describeEveryEventSource`). */
export const eventCatalogue = (): EventCatalogue =>
  [...everySource()].flatMap(([type, s]) => (s ? [[type, s.name, s.actions, s.relationships] as const] : []));

/** Every event name a declared type can emit (`vehicle.created`, …, `vehicle.allocated`). */
export const eventNames = (): string[] =>
  [...everySource().values()].flatMap((s) => (s ? s.actions.map((a) => `${s.name}.${a}`) : []));

/** The record types whose events are named `<name>.…`. */
export const typesNamed = (name: string): string[] =>
  [...everySource()].flatMap(([type, s]) => (s?.name === name ? [type] : []));

export interface StoredEvent {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  id: string;
  org_id: string;
  /** `<name>.<action>`, e.g. `vehicle.allocated`. */
  event: string;
  subject: { type: string; id: string };
  /**
   * The subject's version this event leaves it at (a deletion: one past its last), internal: its place
   * in the subject's own order, which is the order its writes committed (each is conditional on the version
   * before). For a consumer that keeps something per subject in its order (the audit did, until events
   * carried `was`); absent on events committed before it was kept. Never served: webhooks and the change
   * feed show `subject` only.
   */
  subject_version?: number;
  actor: Actor;
  occurred_at: string;
  /** The resource as it became; for a deletion (or a list kept on a related record) its identifier. */
  data: object;
  /**
   * What the write changed, as it was (internal, never served: the audit's `before`, so its consumer keeps
   * no copy of each subject): null for a creation; an update's changed members only (a change side, kept
   * as it is); a deletion's whole record as presented (stored without its empty relationships). Absent
   * on an event not about its subject as it became (a rate code's new version) and on events committed
   * before it was kept.
   */
  was?: object | null;
  expires_at: number;
}

/** Every event item's partition key starts so, and no other item's does (the stream's filter). */
export const EVENT_PARTITION_PREFIX = 'EVENTS#';
const keys = /* @__PURE__ */ declareAccessPatterns('data/events', {
  event: {
    index: 'table',
    pk: `${EVENT_PARTITION_PREFIX}{org_id}`,
    sk: '{event_id}',
    about:
      "the outbox: one per changed record, in the write's transaction (UUIDv7 id); `expires_at` 35 days after",
  },
  'subject-events': {
    index: 'gsi1',
    pk: `${EVENT_PARTITION_PREFIX}{subject_id}`,
    sk: '{event_id}',
    about: 'on each event',
  },
});
export const eventPartition = (orgId: string) => partitionFrom(keys.event, { org_id: orgId });
export const subjectEvents = (subjectId: string) =>
  partitionFrom(keys['subject-events'], { subject_id: subjectId });

/** What a write did to one record: the record as it became, or only who it is (deleted, linked to). */
export interface Change {
  subject: Pick<StoredResource, 'type' | 'id' | 'org_id'> & { version?: number };
  action: string;
  /** The subject's version once changed (the event's `subject_version`); by default the subject's own. */
  version?: number;
  record?: StoredResource;
  /** What the event carries when it is not the subject as it became (a rate code's new version). */
  data?: object;
  /** The subject as the write read it (a replace's, a deletion's) or null (a creation): the event's `was`. */
  was?: StoredResource | null;
  /** Meta the event's record carries beside its own: what the change did that the record cannot say. */
  note?: Record<string, unknown>;
  /** A declared transition's move, carried beside the record (`data.transition`). */
  transition?: Transition;
}

/** A move of a declared state machine: its verb, and the states it left and reached. */
export interface Transition {
  verb: string;
  from: string;
  to: string;
}

/** The record as presented, with the change's note added to its meta. */
const noted = (presented: object, note: Record<string, unknown> | undefined): object =>
  note ? { ...presented, meta: { ...(presented as { meta?: object }).meta, ...note } } : presented;

/** The event's `was`: what the change replaced, as presented (`StoredEvent.was`); undefined if unknown. */
const wasOf = ({ was, record, data }: Change, source: EventSource): object | null | undefined => {
  if (data !== undefined || was === undefined) return undefined;
  if (was === null) return null;
  if (!record) return storedPresentation(source.present(was));
  return changedMembers(source.present(was), source.present(record)).before;
};

/** The event item for a change, or null for a type whose changes are not events. */
export const eventItem = (change: Change, actor: Actor, at: number): StoredEvent | null => {
  const { subject, action, record, data, note, transition } = change;
  const source = sources.get(subject.type);
  if (source === undefined) throw new Error(`${subject.type} records change without declaring their events`);
  if (source === null) return null;
  if (!source.actions.includes(action)) throw new Error(`${subject.type} declares no ${action} event`);
  const id = uuidv7(at);
  const version = change.version ?? subject.version;
  const was = wasOf(change, source);
  return {
    pk: eventPartition(subject.org_id),
    sk: id,
    gsi1pk: subjectEvents(subject.id),
    gsi1sk: id,
    id,
    org_id: subject.org_id,
    event: `${source.name}.${action}`,
    subject: { type: subject.type, id: subject.id },
    ...(version !== undefined && { subject_version: version }),
    actor: { kind: actor.kind, id: actor.id },
    occurred_at: new Date(at).toISOString(),
    data: storedPresentation(
      data ?? {
        ...(record ? noted(source.present(record), note) : { type: subject.type, id: subject.id }),
        ...(transition && { transition }),
      },
    ),
    ...(was !== undefined && { was }),
    expires_at: Math.floor(at / 1000) + EVENT_RETENTION_DAYS * 86_400,
  };
};

/**
 * The first id no event committed before `at` can have: a UUIDv7's first 13 characters are its
 * millisecond, and every id of a later millisecond (or of that one) sorts after them.
 */
const idsBefore = (at: number): string => {
  const hex = at.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}`;
};

export interface EventQuery {
  /** Events after this id (the last one the reader has seen); from the oldest kept when absent. */
  after?: string;
  limit: number;
  /** Only events of these names. */
  names?: readonly string[];
  /** Only events about this record. */
  subjectId?: string;
  /** Only events about records of these types (what the reader may view). */
  subjectTypes: readonly string[];
  /** And about records of these types made by `reader` only (records private to their creator). */
  ownTypes?: readonly string[];
  reader?: string;
  /** Events younger than this are not read yet: they may still be committing with older ones. */
  settleMs: number;
}

/**
 * An organisation's events in order, after a cursor: Query pages of its partition (or of the subject's,
 * on `gsi1`) until `limit` events match or the events end. `last` is the id of the last event read,
 * matching or not, so a reader never reads past what it was not shown twice.
 */
export const readEvents = async (
  scope: Scope,
  orgId: string,
  q: EventQuery,
  now = Date.now(),
): Promise<{ events: StoredEvent[]; last: string | undefined }> => {
  const own = q.reader !== undefined && q.ownTypes?.length ? q.ownTypes : [];
  if (!inScope(scope, orgId) || q.subjectTypes.length + own.length === 0)
    return { events: [], last: q.after };
  const bySubject = q.subjectId !== undefined;
  const values: Record<string, unknown> = {
    ':pk': bySubject ? subjectEvents(q.subjectId ?? '') : eventPartition(orgId),
    ':from': q.after ?? '0',
    ':to': idsBefore(now - q.settleMs),
    ':org': orgId,
  };
  const list = (prefix: string, items: readonly string[]) =>
    items
      .map((value, i) => {
        values[`:${prefix}${i}`] = value;
        return `:${prefix}${i}`;
      })
      .join(', ');
  const visible = [
    ...(q.subjectTypes.length > 0 ? [`#subject.#type IN (${list('type', q.subjectTypes)})`] : []),
    ...(own.length > 0 ? [`(#subject.#type IN (${list('own', own)}) AND #actor.#id = :reader)`] : []),
  ];
  if (own.length > 0) values[':reader'] = q.reader;
  const filters = [`(${visible.join(' OR ')})`, '#org = :org'];
  if (q.names) filters.push(`#event IN (${list('event', q.names)})`);
  const input: QueryCommandInput = {
    TableName: tableName,
    ...(bySubject && { IndexName: 'gsi1' }),
    KeyConditionExpression: `${bySubject ? 'gsi1pk' : 'pk'} = :pk AND #key BETWEEN :from AND :to`,
    FilterExpression: filters.join(' AND '),
    ExpressionAttributeNames: {
      '#key': bySubject ? 'gsi1sk' : 'sk',
      '#subject': 'subject',
      '#type': 'type',
      ...(own.length > 0 && { '#actor': 'actor', '#id': 'id' }),
      '#org': 'org_id',
      ...(q.names && { '#event': 'event' }),
    },
    ExpressionAttributeValues: values,
  };
  const events: StoredEvent[] = [];
  let last = q.after;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documents.send(
      new QueryCommand({ ...input, Limit: q.limit + 1, ExclusiveStartKey: start }),
    );
    start = out.LastEvaluatedKey;
    const page = ((out.Items ?? []) as StoredEvent[]).filter((e) => e.id !== q.after);
    for (const event of page) {
      if (events.length === q.limit) return { events, last };
      events.push(readableEvent(event));
      last = event.id;
    }
    const evaluated = start?.[bySubject ? 'gsi1sk' : 'sk'];
    if (typeof evaluated === 'string' && evaluated > (last ?? '')) last = evaluated;
  } while (start && events.length < q.limit);
  return { events, last };
};

/**
 * The events among a batch of the table's stream records, each with its record's sequence number: new
 * event items only (in AWS the event source mapping delivers nothing else; locally the poller hands over
 * every change, and the rest are passed over here).
 */
export const streamEvents = (records: readonly DynamoDBRecord[]) =>
  records.flatMap((record) => {
    const image = record.dynamodb?.NewImage;
    const key = record.dynamodb?.Keys?.pk?.S;
    if (record.eventName !== 'INSERT' || !image || !key?.startsWith(EVENT_PARTITION_PREFIX)) return [];
    const event = readableEvent(unmarshall(image as Record<string, AttributeValue>) as StoredEvent);
    return [{ sequence: record.dynamodb?.SequenceNumber ?? '', event }];
  });
