/**
 * Migration 38: webhook subscriptions written before `filter[enabled]` and `filter[status]` were
 * answered from indexes (issue 42, item 1) have no entry under either (`lsi1` `enabled#<true|false>#<id>`,
 * `lsi2` `status#<status>#<id>`) and are in no count of them, so the filters never found them. Each is
 * rewritten as today's code writes it (its entries, its counts moved in the same transaction).
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { webhookSubscriptions } from '../definitions';

export const subscriptionFilterIndex = reindexStep(webhookSubscriptions, {
  expression:
    'begins_with(pk, :tenant) AND #type = :type AND (attribute_not_exists(lsi1) OR attribute_not_exists(lsi2) OR attribute_not_exists(#counted))',
  names: { '#type': 'type', '#counted': 'counted' },
  values: { ':tenant': 'ORG#', ':type': webhookSubscriptions.type },
});
