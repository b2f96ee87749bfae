/**
 * Migration 35: customer accounts written before `filter[kind]` and `filter[reference]` were answered from
 * indexes (issue 42, item 1) have no entry under their kind (`lsi2` `kind#<kind>#<name>\u0001<id>`), are
 * in no kind count, and, holding a reference, have no entry under it (`gsi2`), so the filters never found
 * them. Each is rewritten as today's code writes it (its entries, its count moved in the same
 * transaction). A creation window reads the id, a key every account has.
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { customerAccounts } from '../definitions';

export const accountFilterIndex = reindexStep(customerAccounts, {
  expression:
    'begins_with(pk, :tenant) AND #type = :type AND (attribute_not_exists(lsi2) OR attribute_not_exists(#counted) OR (attribute_type(#attributes.#reference, :string) AND attribute_not_exists(gsi2pk)))',
  names: { '#type': 'type', '#counted': 'counted', '#attributes': 'attributes', '#reference': 'reference' },
  values: { ':tenant': 'ORG#', ':type': customerAccounts.type, ':string': 'S' },
});
