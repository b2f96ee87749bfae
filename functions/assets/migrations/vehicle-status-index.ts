/**
 * Migration 5 (7 once items 2 and 4's land): vehicles written before `filter[status]` was answered from an
 * index have no entry in it (`gsi1`: `status#<status>#<id>`) and are in no status count. Each vehicle with a
 * status is rewritten as today's code writes it: the entry its declaration derives, and its status's count
 * moved in the same transaction (data/migrations.ts `rewriteRecord`).
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { vehicles } from '../definitions';

export const vehicleStatusIndex = reindexStep(vehicles, {
  expression:
    '#type = :type AND begins_with(pk, :tenant) AND attribute_exists(#attributes.#status) AND (attribute_not_exists(gsi1pk) OR attribute_not_exists(#counted))',
  names: { '#type': 'type', '#attributes': 'attributes', '#status': 'status', '#counted': 'counted' },
  values: { ':type': vehicles.type, ':tenant': 'ORG#' },
});
