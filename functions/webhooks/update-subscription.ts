import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { webhookSubscriptions } from './definitions';
import { type StoredSubscription, updateSubscription, updateSubscriptionDocument } from './subscriptions';

/**
 * PATCH /v3/webhook-subscriptions/{id}: any change makes a failing subscription active again; 403 unless the
 * caller reads every record the subscription, as changed, carries (`checkMayHold`).
 */
export const handler = jsonApiHandler('updateWebhookSubscription', async (request) => {
  const record = await readInScope(
    request.scope,
    webhookSubscriptions,
    request.params.webhook_subscription_id,
  );
  const next = await updateSubscription(
    request.scope,
    record as StoredSubscription,
    request.body,
    request.principal,
  );
  return resourceResponse(request, webhookSubscriptions, next);
});

export const requestBody = updateSubscriptionDocument;
