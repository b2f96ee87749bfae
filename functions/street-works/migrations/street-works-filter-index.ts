/**
 * Migration 24: permits, street works and protections written before
 * their filters were answered from indexes (issue 42, item 1) have no entry under their status (`gsi1`) or
 * street (`gsi2`), and are in no status count, or under their event type (`gsi1`) and object reference
 * (`gsi2`), so those filters never found them. Each is rewritten as today's code writes it: the entries its
 * declaration derives and its counts moved in one transaction.
 */
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { reindexStep } from '#shared/engine/reindex-step';
import { permits, protections, streetWorks } from '../definitions';

// An object lacks an entry only where it has the value (a permit no event has given a status has none).
const objectLacks =
  '((attribute_type(#attributes.#status, :string) AND (attribute_not_exists(gsi1pk) OR attribute_not_exists(#counted))) OR (attribute_type(#attributes.#usrn, :string) AND attribute_not_exists(gsi2pk)))';
const select = {
  expression: `begins_with(pk, :tenant) AND (((#type = :permit OR #type = :work) AND ${objectLacks}) OR (#type = :protection AND (attribute_not_exists(gsi1pk) OR attribute_not_exists(gsi2pk))))`,
  names: {
    '#type': 'type',
    '#attributes': 'attributes',
    '#status': 'status',
    '#usrn': 'usrn',
    '#counted': 'counted',
  },
  values: {
    ':tenant': 'ORG#',
    ':string': 'S',
    ':permit': permits.type,
    ':work': streetWorks.type,
    ':protection': protections.type,
  },
};
const steps = [permits, streetWorks, protections].map((definition) => ({
  type: definition.type,
  step: reindexStep(definition, select),
}));

/** The three types' records: each page's items go to the step of their type. */
export const streetWorksFilterIndex: MigrationStep = {
  select,
  migrate: async (items, now) => {
    let changed = 0;
    for (const { type, step } of steps)
      changed += await step.migrate(
        items.filter((i) => i.type === type),
        now,
      );
    return changed;
  },
};
