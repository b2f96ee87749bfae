/**
 * Migration 3: equipment items written before `filter[status]` was answered from an index (issue 42,
 * item 1) have no entry in it (`gsi1`: `status#<status>#<id>`), so the filter never found them. Each
 * gets the entry its declaration derives, as an item written today has it.
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { equipmentItems } from '../definitions';

export const equipmentStatusIndex = reindexStep(equipmentItems, {
  expression:
    '#type = :type AND begins_with(pk, :tenant) AND attribute_exists(#attributes.#status) AND attribute_not_exists(gsi1pk)',
  names: { '#type': 'type', '#attributes': 'attributes', '#status': 'status' },
  values: { ':type': equipmentItems.type, ':tenant': 'ORG#' },
});
