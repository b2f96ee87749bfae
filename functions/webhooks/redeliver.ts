import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { webhookDeliveries } from './definitions';
import { requestRedelivery } from './deliveries';

/**
 * POST /v3/webhook-deliveries/{id}/redeliver: 202 with the delivery, due now; the retry runner attempts it
 * within a minute (no receiver is ever called inside a request). 409 while its schedule still runs; 403
 * unless the caller reads every record its subscription carries (`checkMayHold`).
 */
export const handler = jsonApiHandler('redeliverWebhookDelivery', async (request) => {
  const delivery = await readInScope(request.scope, webhookDeliveries, request.params.webhook_delivery_id);
  const due = await requestRedelivery(request.scope, delivery, request.principal);
  return new Reply(202, await resourceResponse(request, webhookDeliveries, due));
});
