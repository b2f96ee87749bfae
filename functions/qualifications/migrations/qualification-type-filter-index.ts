/**
 * Migration 32: qualification types written before `filter[kind]` was answered from an index (issue 42,
 * item 1) have no entry under their kind (`gsi2` `kind#<kind>#<name>\u0001<id>`) and are in no kind count,
 * so the filter never found them. Each is rewritten as today's code writes it (its entry, its count moved
 * in the same transaction). `code` reads its claim, `name` its sort's `lsi1`, a window the id: keys every
 * type has.
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { qualificationTypes } from '../definitions';

export const qualificationTypeFilterIndex = reindexStep(qualificationTypes, {
  expression:
    'begins_with(pk, :tenant) AND #type = :type AND (attribute_not_exists(gsi2pk) OR attribute_not_exists(#counted))',
  names: { '#type': 'type', '#counted': 'counted' },
  values: { ':tenant': 'ORG#', ':type': qualificationTypes.type },
});
