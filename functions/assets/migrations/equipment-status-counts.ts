/**
 * Migration 4 (6 once items 2 and 4's land): `filter[status]` counts each status's equipment items on the type's counter item
 * (`FilterOption.counted`), so an offset page of it reads its page and not every match. Items written
 * before that count was kept are in none (no `counted`): each is rewritten as today's code writes it, and
 * the rewrite adds it to its status's count in the same transaction (data/migrations.ts `rewriteRecord`).
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { equipmentItems } from '../definitions';

export const equipmentStatusCounts = reindexStep(equipmentItems, {
  expression:
    '#type = :type AND begins_with(pk, :tenant) AND attribute_exists(#attributes.#status) AND attribute_not_exists(#counted)',
  names: { '#type': 'type', '#attributes': 'attributes', '#status': 'status', '#counted': 'counted' },
  values: { ':type': equipmentItems.type, ':tenant': 'ORG#' },
});
