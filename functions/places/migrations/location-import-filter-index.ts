/**
 * Migration 40: location imports written before `filter[status]` was answered from an index (issue 42,
 * item 1) have no entry under their status (`lsi1` `status#<status>#<id>`) and are in no status count, so
 * the filter never found them. Each is rewritten as today's code writes it (its entry, its count moved in
 * the same transaction).
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { locationImports } from '../definitions';

export const locationImportFilterIndex = reindexStep(locationImports, {
  expression:
    'begins_with(pk, :tenant) AND #type = :type AND (attribute_not_exists(lsi1) OR attribute_not_exists(#counted))',
  names: { '#type': 'type', '#counted': 'counted' },
  values: { ':tenant': 'ORG#', ':type': locationImports.type },
});
