/**
 * Migration 16: qualification awards written before
 * their filters were answered from indexes (issue 42, item 1) have no entry under their status (`gsi1`:
 * `status#<status>#<id>`), their qualification type (`gsi2`) or their person (`lsi2`:
 * `person#<person id>#<id>`), and are in no status count, so those filters never found them. Each is
 * rewritten as today's code writes it: the entries its declaration derives, and its status's count moved
 * in the same transaction (data/migrations.ts `rewriteRecord`).
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { qualificationAwards } from '../definitions';

export const awardFilterIndex = reindexStep(qualificationAwards, {
  expression:
    '#type = :type AND begins_with(pk, :tenant) AND (attribute_not_exists(gsi1pk) OR attribute_not_exists(#counted) OR (attribute_type(#rels.#kind, :string) AND attribute_not_exists(gsi2pk)) OR (attribute_type(#rels.#person, :string) AND attribute_not_exists(lsi2)))',
  names: {
    '#type': 'type',
    '#counted': 'counted',
    '#rels': 'rels',
    '#kind': 'qualification_type',
    '#person': 'person',
  },
  values: { ':type': qualificationAwards.type, ':tenant': 'ORG#', ':string': 'S' },
});
