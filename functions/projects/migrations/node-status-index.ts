/**
 * Migrations 17 and 18 (issue 42, item 1): schemes, work orders and operations written before their
 * `filter[status]` was answered from an index have no entry in it (`gsi2`: `status#<status>#<id>`) and are
 * in no status count. Each node in place is rewritten as today's code writes it: the entry its declaration
 * derives, and its status's count moved in the same transaction (data/migrations.ts `rewriteRecord`).
 * A parked (deleted) node carries no tree entry (`gsi1pk`) and is left alone: its restore writes both.
 */
import type { ItemSelection } from '#shared/data/migrations';
import type { StoredResource } from '#shared/data/stored-resource';
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { reindexStep } from '#shared/engine/reindex-step';
import { operations, schemes, workOrders } from '../definitions';

const unindexed = (types: readonly string[]): ItemSelection => ({
  expression: `#type IN (${types.map((_, i) => `:type${i}`).join(', ')}) AND begins_with(pk, :tenant) AND attribute_exists(gsi1pk) AND attribute_exists(#attributes.#status) AND (attribute_not_exists(gsi2pk) OR attribute_not_exists(#counted))`,
  names: { '#type': 'type', '#attributes': 'attributes', '#status': 'status', '#counted': 'counted' },
  values: { ...Object.fromEntries(types.map((type, i) => [`:type${i}`, type])), ':tenant': 'ORG#' },
});

export const schemeStatusIndex = reindexStep(schemes, unindexed([schemes.type]));

const workSelection = unindexed([workOrders.type, operations.type]);
const workSteps: Record<string, MigrationStep> = {
  [workOrders.type]: reindexStep(workOrders, workSelection),
  [operations.type]: reindexStep(operations, workSelection),
};

/** Work orders and operations in one pass of the table: each handed to its own type's step. */
export const workStatusIndex: MigrationStep = {
  select: workSelection,
  migrate: async (items, now) => {
    const ofType = (type: string) => items.filter((item: StoredResource) => item.type === type);
    const changed = await Promise.all(
      Object.entries(workSteps).map(([type, step]) => step.migrate(ofType(type), now)),
    );
    return changed.reduce((sum, n) => sum + n, 0);
  },
};
