/**
 * A subscription's delivery log: its deliveries, read by their `lsi1` prefix (`<subscription id>#`) in
 * its organisation's delivery partition; filters, sort and page in memory over that set, which deliveries'
 * 35-day expiry bounds.
 */
import { applyInMemory } from '../../data/in-memory-collection';
import { live, queryIndexPrefix } from '../../data/repository';
import { type CollectionRequest, listResources } from '../collection';
import { readInScope } from '../single';
import { webhookDeliveries, webhookSubscriptions } from './definitions';

export const listSubscriptionDeliveries = async (request: CollectionRequest, subscriptionId: string) => {
  const subscription = await readInScope(request.scope, webhookSubscriptions, subscriptionId);
  return listResources(request, webhookDeliveries, async (query) => {
    const items = await queryIndexPrefix(
      request.scope,
      subscription.org_id,
      webhookDeliveries.type,
      'lsi1',
      `${subscription.id}#`,
    );
    return applyInMemory(
      items.filter((item) => live(item)),
      query,
    );
  });
};
