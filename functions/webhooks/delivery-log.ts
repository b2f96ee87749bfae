/**
 * A subscription's delivery log: its live deliveries, a page at a time from their key range on `lsi1`
 * (newest or oldest first, the only order: creation's), their total from the counts by day.
 */
import { type CollectionRequest, listKept } from '#shared/engine/collection';
import { readInScope } from '#shared/engine/single';
import { keptDeliveries, webhookDeliveries, webhookSubscriptions } from './definitions';

export const listSubscriptionDeliveries = async (request: CollectionRequest, subscriptionId: string) => {
  const subscription = await readInScope(request.scope, webhookSubscriptions, subscriptionId);
  return listKept(request, webhookDeliveries, keptDeliveries(subscription.org_id, subscription.id), [
    subscription,
  ]);
};
