/**
 * Migration 36: service accounts written before `filter[enabled]` was answered from an index (issue 42,
 * item 1) have no entry under it (`lsi2` `enabled#<true|false>#<name>\u0001<id>`) and are in no count of
 * it, so the filter never found them. Each is rewritten as today's code writes it (its entry, its count
 * moved in the same transaction). `name` reads its sort's `lsi1`, a creation window the id.
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { serviceAccounts } from '../definitions';

export const serviceAccountFilterIndex = reindexStep(serviceAccounts, {
  expression:
    'begins_with(pk, :tenant) AND #type = :type AND (attribute_not_exists(lsi2) OR attribute_not_exists(#counted))',
  names: { '#type': 'type', '#counted': 'counted' },
  values: { ':tenant': 'ORG#', ':type': serviceAccounts.type },
});
