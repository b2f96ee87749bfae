import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { webhookSubscriptions } from './definitions';
import { deleteSubscription } from './subscriptions';

/** DELETE /v3/webhook-subscriptions/{id}: 204; its pending deliveries fail at their next attempt. */
export const handler = jsonApiHandler('deleteWebhookSubscription', async (request) => {
  const record = await readInScope(
    request.scope,
    webhookSubscriptions,
    request.params.webhook_subscription_id,
  );
  await deleteSubscription(request.scope, record);
  return new Reply(204, undefined);
});
