/**
 * Street works from the national service: permits and activities (each keyed by the service's own
 * reference, so a later event updates and never duplicates) and the protections, one per event received,
 * that moved them.
 */

import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import type { SchemaBuilders } from '#shared/jsonapi/schema-builders';

const objectCollection = {
  filters: {
    status: { kind: 'eq', path: 'attributes.status' },
    reference: { kind: 'eq', path: 'attributes.reference' },
    usrn: { kind: 'eq', path: 'attributes.usrn' },
    latest_event_time: { kind: 'time', path: 'attributes.latest_event_time' },
    created_at: { kind: 'time', path: 'meta.created_at' },
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
  collection: {
    ...objectCollection,
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
  collection: {
    filters: {
      created_at: false,
      event_type: { kind: 'eq', path: 'attributes.event_type' },
      object_reference: { kind: 'eq', path: 'attributes.object_reference' },
      applied: { kind: 'eq', path: 'attributes.applied', type: 'boolean' },
      event_time: { kind: 'time', path: 'attributes.event_time' },
      received_at: { kind: 'time', path: 'attributes.received_at' },
    },
    sorts: {
      created_at: { path: 'meta.created_at' },
      event_time: { path: 'attributes.event_time', index: 'lsi1' },
    },
    defaultSort: '-created_at',
    includes: ['permit', 'street_work'],
  },
});
