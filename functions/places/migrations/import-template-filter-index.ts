/**
 * Migration 34: import templates written before `filter[target]` was answered from an index (issue 42,
 * item 1) have no entry under their target (`lsi2` `target#<target>#<name>\u0001<id>`) and are in no
 * target count, so the filter never found them. Each is rewritten as today's code writes it (its entry, its
 * count moved in the same transaction).
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { importTemplates } from '../definitions';

export const importTemplateFilterIndex = reindexStep(importTemplates, {
  expression:
    'begins_with(pk, :tenant) AND #type = :type AND (attribute_not_exists(lsi2) OR attribute_not_exists(#counted))',
  names: { '#type': 'type', '#counted': 'counted' },
  values: { ':tenant': 'ORG#', ':type': importTemplates.type },
});
