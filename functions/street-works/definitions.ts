/**
 * Street works from the national service: permits and activities (each keyed by the service's own
 * reference, so a later event updates and never duplicates) and the protections, one per event received,
 * that moved them.
 */

import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import type { SchemaBuilders } from '#shared/jsonapi/schema-builders';

/**
 * A permit's or a street work's keys: its status under `gsi1` and its street (USRN) under `gsi2`, each a
 * prefix ending in the id, so an organisation's half a million notices a year never make a filter read the
 * partition; reference and latest event time are answered by their sorts' own indexes.
 */
const objectKeys = (type: 'permits' | 'street-works', noun: string) =>
  ({
    'filter-status': {
      index: 'gsi1',
      pk: `ORG#{org_id}#${type}`,
      sk: 'status#{attributes.status}#{id}',
      about: `${noun} under its status, in creation order: \`filter[status]\`; those written before issue 42 lack it until migrated`,
    },
    'filter-usrn': {
      index: 'gsi2',
      pk: `ORG#{org_id}#${type}`,
      sk: 'usrn#{attributes.usrn}#{id}',
      about: `${noun} under its street (USRN), in creation order: \`filter[usrn]\`; those written before issue 42 lack it until migrated`,
    },
  }) as const;

const objectCollection = {
  // Every filter is indexed: status (a handful of values the events set, counted), street, the unique
  // reference (its sort's index), the latest event's time (its sort's index) and creation (the key).
  filters: {
    status: { kind: 'eq', path: 'attributes.status', index: 'filter-status', counted: true },
    reference: { kind: 'eq', path: 'attributes.reference', index: 'sort-reference' },
    usrn: { kind: 'eq', path: 'attributes.usrn', index: 'filter-usrn' },
    latest_event_time: {
      kind: 'time',
      path: 'attributes.latest_event_time',
      index: 'sort-latest_event_time',
    },
    created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
  },
  sorts: {
    reference: { path: 'attributes.reference', index: 'lsi1' },
    latest_event_time: { path: 'attributes.latest_event_time', index: 'lsi2' },
  },
  defaultSort: '-latest_event_time',
  includes: ['protections'],
} as const;

/**
 * A permit's or a street work's state, as the events received from Street Manager left it
 * (domain/street-works/events.ts): null until an event says; the last applied event's data and message
 * attributes as they came.
 */
const objectState = ({ z, instant, jsonObject }: SchemaBuilders) => ({
  reference: z.string(),
  status: z.string().nullable(),
  work_status: z.enum(['not_started', 'in_progress', 'completed']).nullable(),
  latest_event_time: instant().nullable(),
  usrn: z.string().nullable(),
  object_data: jsonObject().optional(),
  message_attributes: z.record(z.string(), z.string()).optional(),
});

export const permits = defineResource({
  type: 'permits',
  tag: 'Permits',
  names: { one: 'Permit', many: 'Permits' },
  collectionPath: '/v3/orgs/{org_id}/street-works/permits',
  itemPath: '/v3/permits/{permit_id}',
  permission: 'street-works',
  endpoints: { list: true, get: true },
  served: async () => objectState(await loadSchemaBuilders()),
  relationships: {
    protections: { type: 'street-works-protections', many: true },
  },
  keys: objectKeys('permits', 'a permit'),
  collection: {
    ...objectCollection,
    // Every index a permit has is taken (both sorts, status, street): `work_status` (three values) narrows
    // an indexed filter and is refused alone (docs/api.md).
    filters: { ...objectCollection.filters, work_status: { kind: 'eq', path: 'attributes.work_status' } },
  },
});

export const streetWorks = defineResource({
  type: 'street-works',
  names: { one: 'StreetWork', many: 'StreetWorks' },
  collectionPath: '/v3/orgs/{org_id}/street-works/activities',
  itemPath: '/v3/street-works/{street_work_id}',
  permission: 'street-works',
  endpoints: { list: true, get: true },
  served: async () => objectState(await loadSchemaBuilders()),
  relationships: {
    protections: { type: 'street-works-protections', many: true },
  },
  keys: objectKeys('street-works', 'a street work'),
  collection: objectCollection,
});

export const protections = defineResource({
  type: 'street-works-protections',
  names: { one: 'StreetWorksProtection', many: 'StreetWorksProtections' },
  collectionPath: '/v3/orgs/{org_id}/street-works/protections',
  itemPath: '/v3/street-works-protections/{protection_id}',
  permission: 'street-works',
  endpoints: { list: true, get: true },
  // One event received, as it came and when; `applied`: whether it moved its object's state.
  served: async () => {
    const builders = await loadSchemaBuilders();
    const { z, instant, jsonObject } = builders;
    return {
      event_reference: z.string(),
      event_type: z.string(),
      object_type: z.enum(['PERMIT', 'ACTIVITY']),
      object_reference: z.string(),
      event_time: instant(),
      received_at: instant(),
      applied: z.boolean(),
      event: jsonObject().describe('The event as Street Manager sent it.'),
      message_attributes: z.record(z.string(), z.string()),
      sns: z.strictObject({ topic_arn: z.string(), message_id: z.string(), subject: z.string().nullable() }),
    };
  },
  relationships: {
    permit: { type: 'permits' },
    street_work: { type: 'street-works' },
  },
  keys: {
    'filter-event-type': {
      index: 'gsi1',
      pk: 'ORG#{org_id}#street-works-protections',
      sk: 'event_type#{attributes.event_type}#{id}',
      about:
        'a protection under its event type, in creation order: `filter[event_type]`; those written before issue 42 lack it until migrated',
    },
    'filter-object-reference': {
      index: 'gsi2',
      pk: 'ORG#{org_id}#street-works-protections',
      sk: 'object_reference#{attributes.object_reference}#{id}',
      about:
        "a protection under its permit's or activity's reference, in creation order: `filter[object_reference]`; those written before issue 42 lack it until migrated",
    },
  },
  collection: {
    // Half a million a year for the largest tenant. `received_at` is the instant the id was minted at
    // (receive.ts makes both from one `now`), so its window is a key range. `applied` is taken beside an
    // indexed filter: the one index left is local, and its copy of each protection would bring the
    // collection to 10 GB within ten years (shared/data/README.md, Growth).
    filters: {
      created_at: false,
      event_type: { kind: 'eq', path: 'attributes.event_type', index: 'filter-event-type' },
      object_reference: { kind: 'eq', path: 'attributes.object_reference', index: 'filter-object-reference' },
      applied: { kind: 'eq', path: 'attributes.applied', type: 'boolean' },
      event_time: { kind: 'time', path: 'attributes.event_time', index: 'sort-event_time' },
      received_at: { kind: 'time', path: 'attributes.received_at', index: 'record' },
    },
    sorts: {
      created_at: { path: 'meta.created_at' },
      event_time: { path: 'attributes.event_time', index: 'lsi1' },
    },
    defaultSort: '-created_at',
    includes: ['permit', 'street_work'],
  },
});
