/**
 * Migration 37: agents written before `filter[enabled]` was answered from an index (issue 42, item 1)
 * have no entry under it (`lsi2` `enabled#<true|false>#<name>\u0001<id>`) and are in no count of it, so
 * the filter never found them. Each is rewritten as today's code writes it (its entry, its count moved in
 * the same transaction). A creation window reads the id.
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { agents } from '../definitions';

export const agentFilterIndex = reindexStep(agents, {
  expression:
    'begins_with(pk, :tenant) AND #type = :type AND (attribute_not_exists(lsi2) OR attribute_not_exists(#counted))',
  names: { '#type': 'type', '#counted': 'counted' },
  values: { ':tenant': 'ORG#', ':type': agents.type },
});
