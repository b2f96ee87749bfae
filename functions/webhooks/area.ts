import { defineArea } from '#shared/engine/area';
import { eventConsumer } from '#shared/engine/event-consumers';
import { migration } from '#shared/engine/migration-declarations';
import { webhookDeliveries, webhookSubscriptions } from './definitions';
import { DELIVERY_ATTEMPT } from './due-work';

export const area = defineArea('webhooks', {
  tag: 'Webhooks',
  feature: { description: 'Webhook subscriptions and their deliveries.' },
  permissions: {
    'webhooks:view':
      'See webhook subscriptions (never their signing secrets) and their deliveries: attempts, answers and retries.',
    'webhooks:manage':
      'Create, change and delete webhook subscriptions, rotate their signing secrets and redeliver deliveries.',
  },
  consumers: [
    eventConsumer(
      'webhooks',
      { module: 'functions/webhooks/consumer.ts', handle: 'deliverToSubscriptions' },
      'deliver',
    ),
  ],
  resources: [webhookSubscriptions, webhookDeliveries],
  dueWork: [DELIVERY_ATTEMPT],
  migrations: [
    migration(12, 'deliveries-by-creation', {
      module: 'functions/webhooks/migrations/deliveries-by-creation.ts',
      step: 'deliveriesByCreation',
    }),
    migration(38, 'subscription-filter-index', {
      module: 'functions/webhooks/migrations/subscription-filter-index.ts',
      step: 'subscriptionFilterIndex',
    }),
  ],
  routes: [
    {
      id: 'rotateWebhookSubscriptionSecret',
      method: 'POST',
      path: '/v3/webhook-subscriptions/{webhook_subscription_id}/rotate-secret',
      handler: 'functions/webhooks/rotate-secret.ts',
      answers: { status: 200, resource: 'webhook-subscriptions' },
      permission: 'webhooks:manage',
      // Encrypts the new secret; nothing in the API decrypts one (only the delivery functions do).
      access: { table: 'write', webhookSecrets: 'encrypt' },
    },
    {
      id: 'listWebhookDeliveries',
      method: 'GET',
      path: '/v3/webhook-subscriptions/{webhook_subscription_id}/deliveries',
      handler: 'functions/webhooks/list-deliveries.ts',
      answers: { status: 200, collection: 'webhook-deliveries' },
      permission: 'webhooks:view',
    },
    {
      id: 'redeliverWebhookDelivery',
      method: 'POST',
      path: '/v3/webhook-deliveries/{webhook_delivery_id}/redeliver',
      handler: 'functions/webhooks/redeliver.ts',
      // Accepted: the due-work runner makes the attempt within a minute; the request never waits on a receiver.
      answers: { status: 202, resource: 'webhook-deliveries' },
      permission: 'webhooks:manage',
    },
  ],
});
