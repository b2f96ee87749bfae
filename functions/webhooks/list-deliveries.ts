import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listSubscriptionDeliveries } from './delivery-log';

/** GET /v3/webhook-subscriptions/{id}/deliveries: the subscription's deliveries, newest first by default. */
export const handler = jsonApiHandler('listWebhookDeliveries', (request) =>
  listSubscriptionDeliveries(request, request.params.webhook_subscription_id),
);
