import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { webhookSubscriptions } from './definitions';
import { createSubscription, createSubscriptionDocument, withSecret } from './subscriptions';

/** POST /v3/orgs/{org_id}/webhook-subscriptions: 201 with the signing secret, shown this once. */
export const handler = jsonApiHandler('createWebhookSubscription', async (request) => {
  const { record, secret } = await createSubscription(
    request.scope,
    request.params.org_id,
    request.body,
    request.principal,
  );
  const document = await resourceResponse(request, webhookSubscriptions, record);
  return created({ ...document, data: withSecret(document.data, secret) }, { 'Cache-Control': 'no-store' });
});

export const requestBody = createSubscriptionDocument;
