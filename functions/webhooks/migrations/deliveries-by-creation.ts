/**
 * Deliveries made before a subscription's deliveries were a kept collection (4246cec) keep the old `lsi1`,
 * `<subscription id>#<event id>`, and are in no day's count: the delivery log
 * (`GET /v3/webhook-subscriptions/{id}/deliveries`) ordered them by their event, not their creation, and
 * its total left them out. Each gets the key a delivery made on its day has today,
 * `<subscription id>#<UUIDv7 of its creation>`, its TTL the end of that day plus the events' days, and is
 * counted in that day. An old key is the one holding the delivery's event id; a new one never does.
 */
import { fill } from '#shared/data/access-patterns';
import { uuidv7 } from '#shared/data/ids';
import type { StoredResource } from '#shared/data/stored-resource';
import { keptRefilingStep } from '#shared/engine/kept-refiling-step';
import { keptDeliveries, webhookDeliveries } from '../definitions';

const subscriptionOf = (record: StoredResource) => {
  const id = record.rels.subscription;
  return typeof id === 'string' ? id : undefined;
};

export const deliveriesByCreation = keptRefilingStep(webhookDeliveries, {
  unfiled: {
    expression: 'contains(lsi1, #attributes.#event_id)',
    names: { '#attributes': 'attributes', '#event_id': 'event_id' },
  },
  filed: (record) => !String(record.lsi1).includes(String(record.attributes.event_id)),
  keptOf: (record) => {
    const subscription = subscriptionOf(record);
    return subscription ? keptDeliveries(record.org_id, subscription) : undefined;
  },
  keys: (record, _kept, createdAt) => ({
    lsi1: fill(webhookDeliveries.keys['by-subscription'].sk, {
      subscription_id: String(subscriptionOf(record)),
      created_id: uuidv7(createdAt.getTime()),
    }),
  }),
});
