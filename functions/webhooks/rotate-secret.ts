import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { webhookSubscriptions } from './definitions';
import { rotateSecret, type StoredSubscription, withSecret } from './subscriptions';

/**
 * POST /v3/webhook-subscriptions/{id}/rotate-secret: 200 with the new secret, shown this once; the one it
 * replaces keeps signing (a second signature) for 24 hours. 403 unless the caller reads every record the
 * subscription carries (`checkMayHold`).
 */
export const handler = jsonApiHandler('rotateWebhookSubscriptionSecret', async (request) => {
  const record = await readInScope(
    request.scope,
    webhookSubscriptions,
    request.params.webhook_subscription_id,
  );
  const rotated = await rotateSecret(request.scope, record as StoredSubscription, request.principal);
  const document = await resourceResponse(request, webhookSubscriptions, rotated.record);
  return new Reply(
    200,
    { ...document, data: withSecret(document.data, rotated.secret) },
    { 'Cache-Control': 'no-store' },
  );
});
