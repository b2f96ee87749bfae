/** A body for each of the webhooks area's write routes (null: it takes none); see shared/engine/examples.ts. */
import type { RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createWebhookSubscription: () => ({
    data: {
      type: 'webhook-subscriptions',
      attributes: { url: 'https://hooks.example.com/in', event_types: ['equipment-manufacturer.created'] },
    },
  }),
  updateWebhookSubscription: (i) => ({
    data: {
      type: 'webhook-subscriptions',
      id: i.webhook_subscription_id,
      attributes: { description: 'ERP bridge' },
    },
  }),
  rotateWebhookSubscriptionSecret: null,
  redeliverWebhookDelivery: null,
};
