import { verifySnsMessage } from '#shared/auth/sns-messages';
import { toResourceObject } from '#shared/engine/serialise';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { metric } from '#shared/http/metrics';
import { metaDocument, resourceDocument } from '#shared/jsonapi/document';
import { ApiError } from '#shared/jsonapi/errors';
import { protections } from './definitions';
import { confirm, processNotification, recordSubscription } from './receive';

export { snsEnvelope as requestBody } from '#shared/domain/sns-message';

/**
 * POST /street-works/protections: the national street-works service's SNS topic delivers here. The
 * message proves where it came from (see shared/auth/sns-messages.ts); a notification answers with the
 * protection it made (the same one for a redelivery), confirmations with what was recorded.
 */
export const handler = jsonApiHandler('receiveStreetWorksProtection', async (request) => {
  const message = await verifySnsMessage(String(request.body ?? ''), request.headers).catch((error) => {
    // Refused (signature, topic, replay window): counted, so a misconfigured or forged sender alarms.
    if (error instanceof ApiError && error.status < 500) metric('StreetWorksRejected');
    throw error;
  });
  if (message.Type === 'SubscriptionConfirmation') {
    const subscriptionArn = await confirm(message);
    return metaDocument({
      subscription: { status: 'confirmed', topic_arn: message.TopicArn, subscription_arn: subscriptionArn },
    });
  }
  if (message.Type === 'UnsubscribeConfirmation') {
    await recordSubscription(message, 'unsubscribed', new Date());
    metric('StreetWorksUnsubscribed');
    return metaDocument({ subscription: { status: 'unsubscribed', topic_arn: message.TopicArn } });
  }
  const processed = await processNotification(message);
  if ('unrouted' in processed) {
    metric('StreetWorksUnrouted');
    return metaDocument({ protection: { status: 'unrouted', message_id: processed.unrouted } });
  }
  const document = resourceDocument(
    request,
    toResourceObject(protections, processed.protection, request.baseUrl),
  );
  return { ...document, meta: { duplicate: processed.duplicate } };
});
