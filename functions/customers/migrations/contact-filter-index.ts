/**
 * Migration 31: customer contacts written before `filter[association]` was answered from an index (issue
 * 42, item 1) have no entry under their association (`gsi2` `association#<association>#<last name>#<id>`)
 * and are in no association count, so the filter never found them. Each is rewritten as today's code
 * writes it (its entry, its count moved in the same transaction). `email`, `last_name` and a creation
 * window read keys every contact has (its sorts' `lsi2` and `lsi1`, its id).
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { customerContacts } from '../definitions';

export const contactFilterIndex = reindexStep(customerContacts, {
  expression:
    'begins_with(pk, :tenant) AND #type = :type AND (attribute_not_exists(gsi2pk) OR attribute_not_exists(#counted))',
  names: { '#type': 'type', '#counted': 'counted' },
  values: { ':tenant': 'ORG#', ':type': customerContacts.type },
});
