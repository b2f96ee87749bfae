/**
 * Audit events: what happened to a record, who did it, when, and the before/after of what changed.
 * Entries are derived from the event log by a stream consumer (`consumer.ts`), one per event, and kept
 * for good (events expire after 35 days). An entry about a type with a history route (`historySubjects`)
 * is indexed by subject (`gsi1`, by event id, so in time order) so the record's history reads a page at a
 * time, with a per-subject counter for its total.
 * Kept for good, an organisation's entries pass one item collection's 10 GB within a year for the largest
 * tenant (the growth table, shared/data/README.md), so they are bucketed by month (data/time-buckets.ts).
 */

import { declareAccessPatterns, partitionFrom } from '#shared/data/access-patterns';
import { counterKey } from '#shared/data/stored-resource';
import { declareTimeBuckets } from '#shared/data/time-buckets';
import { defineResource } from '#shared/engine/resource-definition';
import type { CollectionOptions } from '#shared/jsonapi/collection-query';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import { servedSides } from './entry-sides';

/**
 * From December 2026: entries before stay where the code before buckets wrote them, read as the oldest
 * bucket; later ones it wrote there (a deploy after December began) migration 5 moves to their months.
 */
export const auditBuckets = declareTimeBuckets('audit-events', { since: '2026-12' });

export const auditEvents = defineResource({
  type: 'audit-events',
  keys: auditBuckets.keys,
  keyOf: auditBuckets.keyOf,
  events: false,
  names: { one: 'AuditEvent', many: 'AuditEvents' },
  collectionPath: '/v3/orgs/{org_id}/audit-events',
  itemPath: '/v3/orgs/{org_id}/audit-events/{audit_event_id}',
  permission: 'audit-events',
  endpoints: { list: true, get: true },
  served: async () => {
    const { z, instant, recordName, jsonObject } = await loadSchemaBuilders();
    // The members that changed, as they were and as they became (domain/audit/changes.ts).
    const members = z
      .strictObject({ attributes: jsonObject().optional(), relationships: jsonObject().optional() })
      .nullable();
    return {
      action: z.string().describe('The event: `<resource>.<action>`, e.g. `vehicle.updated`.'),
      occurred_at: instant(),
      subject: recordName(),
      actor: z.strictObject({ kind: z.enum(['user', 'service-account', 'system']), id: z.string() }),
      before: members,
      after: jsonObject()
        .nullable()
        .describe(
          "The members that changed, as they became (`{attributes, relationships}`); for an event about a record kept beside its subject (a rate code's new version), that record.",
        ),
      omitted: z.array(z.string()).optional(),
    };
  },
  // Whole sides are stored without their empty relationships (entry-sides.ts).
  servedAttributes: servedSides,
  relationships: {
    actor_user: { type: 'users' },
    actor_service_account: { type: 'service-accounts' },
  },
  collection: {
    filters: {
      created_at: false,
      action: { kind: 'eq', path: 'attributes.action' },
      subject_type: { kind: 'eq', path: 'attributes.subject.type' },
      subject_id: { kind: 'eq', path: 'attributes.subject.id' },
      occurred_at: { kind: 'time', path: 'attributes.occurred_at' },
    },
    defaultSort: '-created_at',
    includes: ['actor_user', 'actor_service_account'],
  },
});

/** A record's own history: newest first, paginated, nothing else to filter. */
export const historyOptions: CollectionOptions = {
  filters: {},
  sorts: { created_at: { path: 'meta.created_at' } },
  defaultSort: '-created_at',
  includes: [],
};

/**
 * The subject types whose history a route lists (`/v3/vehicles/{vehicle_id}/audit-events`): only their
 * entries are filed under their subject. Nothing else reads that index (the list's `filter[subject_id]` is
 * not index-backed), so other entries leave it out: one index write less, a write unit, per event (issue
 * 42, item 7). A type given a history route joins this list, and migrates its entries written before.
 */
export const historySubjects: ReadonlySet<string> = new Set(['vehicles']);

const keys = /* @__PURE__ */ declareAccessPatterns('audit/audit-events', {
  history: {
    index: 'gsi1',
    pk: 'SUBJECT#{subject_id}',
    sk: '{event_id}',
    about:
      "an audit entry, under its subject (a record's history), for subject types with a history route only",
  },
});
export const subjectIndexKey = (subjectId: string) => partitionFrom(keys.history, { subject_id: subjectId });
export const historyCounter = (orgId: string, subjectId: string) =>
  counterKey(orgId, `audit-events#${subjectId}`);
