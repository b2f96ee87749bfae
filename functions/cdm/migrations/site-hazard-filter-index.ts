/**
 * Migration 27: site hazards written before a pack's hazards were filtered
 * through an index have no entry in them (`lsi1` `pack#<pack>#status#…`, `lsi2` `pack#<pack>#severity#…`,
 * `gsi2` `SITE-HAZARDS#<org>#<pack>`), so an indexed filter would miss them, nor a count of their status
 * and severity on the pack's children counter (an offset page's total). Each is rewritten as today's code
 * writes it (the entries its declaration derives), its counts added in the same transaction.
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { siteHazards } from '../definitions';

export const siteHazardFilterIndex = reindexStep(siteHazards, {
  expression:
    '#type = :type AND begins_with(pk, :tenant) AND (attribute_not_exists(lsi1) OR attribute_not_exists(lsi2) OR attribute_not_exists(gsi2pk))',
  names: { '#type': 'type' },
  values: { ':type': siteHazards.type, ':tenant': 'ORG#' },
});
