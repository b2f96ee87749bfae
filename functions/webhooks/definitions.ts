/**
 * Webhooks (issue 18): an organisation's subscriptions, and the deliveries of its events to them.
 * Subscriptions are written by their own handlers (a secret is made and encrypted, URLs and event types
 * are checked); deliveries only by the delivery functions, so they declare no writes. A delivery's
 * changes are not events: an event about a delivery would itself be delivered, without end.
 */

import { EVENT_RETENTION_DAYS } from '#shared/data/events';
import type { Kept } from '#shared/data/kept';
import { collectionPartition } from '#shared/data/stored-resource';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

export const webhookSubscriptions = defineResource({
  type: 'webhook-subscriptions',
  tag: 'Webhooks',
  names: { one: 'WebhookSubscription', many: 'WebhookSubscriptions' },
  collectionPath: '/v3/orgs/{org_id}/webhook-subscriptions',
  itemPath: '/v3/webhook-subscriptions/{webhook_subscription_id}',
  permission: 'webhooks',
  endpoints: {
    list: true,
    get: true,
    create: {
      handler: 'functions/webhooks/create-subscription.ts',
      access: { table: 'write', webhookSecrets: 'encrypt' },
    },
    update: 'functions/webhooks/update-subscription.ts',
    delete: 'functions/webhooks/delete-subscription.ts',
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    return {
      url: z.string(),
      event_types: z.array(z.string()).describe('Event names (`vehicle.created`), or `*` for every event.'),
      enabled: z.boolean(),
      description: z.string(),
      status: z
        .enum(['active', 'failing'])
        .describe('`failing` since `failing_since`: deliveries keep failing.'),
      failing_since: instant().nullable(),
      secret: z
        .string()
        .optional()
        .describe('The signing secret (`whsec_…`): only in the answer that made it (a create, a rotation).'),
    };
  },
  // In creation order (the list's sort), each on a local index of its own: no sort uses either.
  keys: {
    'filter-enabled': {
      index: 'lsi1',
      pk: 'ORG#{org_id}#webhook-subscriptions',
      sk: 'enabled#{attributes.enabled}#{id}',
      about:
        '`filter[enabled]`, in creation order; subscriptions written before issue 42 lack it until migrated',
    },
    'filter-status': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#webhook-subscriptions',
      sk: 'status#{attributes.status}#{id}',
      about:
        '`filter[status]`, in creation order; subscriptions written before issue 42 lack it until migrated',
    },
  },
  collection: {
    // Every filter indexed and counted (two values each), a creation window on the ids.
    filters: {
      enabled: {
        kind: 'eq',
        path: 'attributes.enabled',
        type: 'boolean',
        index: 'filter-enabled',
        counted: true,
      },
      status: { kind: 'eq', path: 'attributes.status', index: 'filter-status', counted: true },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    defaultSort: 'created_at',
    includes: [],
  },
});

export const webhookDeliveries = defineResource({
  type: 'webhook-deliveries',
  keys: {
    'by-subscription': {
      index: 'lsi1',
      pk: 'ORG#{org_id}#webhook-deliveries',
      sk: '{subscription_id}#{created_id}',
      about:
        "a subscription's log in creation order (a UUIDv7 of its creation), counted by day in `ORG#<org_id>#counters`/`deliveries#<subscription id>#days`",
    },
  },
  tag: 'Webhooks',
  names: { one: 'WebhookDelivery', many: 'WebhookDeliveries' },
  itemPath: '/v3/webhook-deliveries/{webhook_delivery_id}',
  permission: 'webhooks',
  endpoints: { get: true },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    return {
      event_id: z.string(),
      event_type: z.string(),
      status: z.enum(['pending', 'delivered', 'failed']),
      attempt_count: z.number().int(),
      scheduled_attempts: z
        .number()
        .int()
        .optional()
        .describe('Attempts the retry schedule made (not redeliveries).'),
      redelivery_requested: z.boolean().optional(),
      next_attempt_at: instant().nullable(),
      attempts: z
        .array(
          z.strictObject({
            number: z.number().int(),
            attempted_at: instant(),
            status_code: z
              .number()
              .int()
              .nullable()
              .describe("The receiver's HTTP status; null when none came."),
            duration_ms: z.number(),
            response_excerpt: z.string(),
            error: z.string().nullable(),
            manual: z.boolean().describe('A redelivery a client asked for.'),
          }),
        )
        .describe('The latest attempts, oldest first.'),
    };
  },
  relationships: {
    subscription: { type: 'webhook-subscriptions' },
  },
  collection: {
    filters: {
      status: { kind: 'eq', path: 'attributes.status' },
      event_type: { kind: 'eq', path: 'attributes.event_type' },
    },
    defaultSort: '-created_at',
    includes: ['subscription'],
  },
  events: false,
});

/**
 * A subscription's live deliveries (kept as long as events, from the start of their day of creation): its
 * organisation's delivery partition on `lsi1`, `<subscription id>#<UUIDv7 of the delivery's creation>`,
 * counted by day of creation, so a page reads the page.
 */
export const keptDeliveries = (orgId: string, subscriptionId: string): Kept => ({
  orgId,
  days: EVENT_RETENTION_DAYS,
  partition: {
    pk: collectionPartition(orgId, webhookDeliveries.type),
    index: 'lsi1',
    prefix: `${subscriptionId}#`,
  },
  counter: `deliveries#${subscriptionId}`,
});
