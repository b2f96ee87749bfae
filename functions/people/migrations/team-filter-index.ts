/**
 * Migration 33: teams written before `filter[updated_at]` and `sort=updated_at` were answered from an
 * index (issue 42, item 1) have no modification time on `lsi2`, so the filter and the sort never found
 * them. Each is rewritten as today's code writes it (its sort values recomputed). `name` reads its sort's
 * `lsi1`, a creation window the id: keys every team has.
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { teams } from '../teams';

export const teamFilterIndex = reindexStep(teams, {
  expression: 'begins_with(pk, :tenant) AND #type = :type AND attribute_not_exists(lsi2)',
  names: { '#type': 'type' },
  values: { ':tenant': 'ORG#', ':type': teams.type },
});
