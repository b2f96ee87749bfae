/**
 * Migration 30: rate codes written before `filter[category]` was answered from an index (issue 42, item 1)
 * have no entry under their category (`gsi2` `category#<category>#<code>#<id>`) and are in no category
 * count, so the filter never found them. Each is rewritten as today's code writes it (its entry, its count
 * moved in the same transaction). `filter[code]` reads the code's claim, which every rate code has had.
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { rateCodes } from '../definitions';

export const rateCodeFilterIndex = reindexStep(rateCodes, {
  expression:
    'begins_with(pk, :tenant) AND #type = :type AND (attribute_not_exists(gsi2pk) OR attribute_not_exists(#counted))',
  names: { '#type': 'type', '#counted': 'counted' },
  values: { ':tenant': 'ORG#', ':type': rateCodes.type },
});
