/**
 * A work order's `filter[scheme]` and an operation's `filter[work_order]` (`FilterOption.subtree`): the
 * parent's subtree on the tree index (data/trees.ts), its nodes of the listed type, the query's filters,
 * sort and page applied to them. It reads the parent and what lies under it, never the partition: a
 * scheme's work orders with their operations, a work order's operations. A parent deleted (parked) still
 * answers for the nodes under it, which stay in their collections, as the partition's filter did.
 * Loaded when such a read comes (a declaration carries no I/O).
 */
import type { CollectionQuery, FilterClause, PageRead } from '#shared/data/collection-query';
import { applyInMemory } from '#shared/data/in-memory-collection';
import { readAheadOr } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { deletedKey, subtree } from '#shared/data/trees';
import type { ResourceDefinition } from '#shared/engine/declaration';

export const readUnderParent = async (
  scope: Scope,
  orgId: string,
  query: CollectionQuery,
  { type, filter, parent }: { type: string; filter: string; parent: ResourceDefinition },
): Promise<PageRead<StoredResource> | null> => {
  const clause = query.filters.find(
    (c): c is Extract<FilterClause, { op: 'eq' }> => c.op === 'eq' && c.field === filter,
  );
  if (!clause) return null;
  const id = String(clause.value);
  // In place or parked: one BatchGetItem of both keys.
  const [node] = await readAheadOr<StoredResource>(scope, [
    parent.keyOf(orgId, id),
    deletedKey(orgId, parent.type, id),
  ]);
  const under = node && node.org_id === orgId ? await subtree(scope, node) : [];
  return applyInMemory(
    under.filter((n) => n.type === type),
    query,
  );
};
