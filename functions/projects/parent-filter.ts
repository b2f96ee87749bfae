/**
 * A work order's `filter[scheme]` and an operation's `filter[work_order]` (`FilterOption.subtree`).
 * A scheme's work orders are the ids its progress item lists (progress.ts), read by key: never its
 * operations, and, by cursor in creation order, only the page's. A work order's operations are its
 * subtree on the tree index (data/trees.ts) less itself. A parent deleted (parked) still answers for the
 * nodes under it, which stay in their collections, as the partition's filter did.
 * Loaded when such a read comes (a declaration carries no I/O).
 */
import { compareCodePoints } from '#shared/data/collation';
import {
  type CollectionQuery,
  type FilterClause,
  type PageRead,
  valueAt,
} from '#shared/data/collection-query';
import { applyInMemory, memoryPosition } from '#shared/data/in-memory-collection';
import { batchGetInScope, readAheadOr } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import { resourceKey, type StoredResource } from '#shared/data/stored-resource';
import { deletedKey, subtree } from '#shared/data/trees';
import type { ResourceDefinition } from '#shared/engine/declaration';
import { listedWorkOrders } from './progress';

const parentNamed = (query: CollectionQuery, filter: string) =>
  query.filters.find((c): c is Extract<FilterClause, { op: 'eq' }> => c.op === 'eq' && c.field === filter);

export const readUnderParent = async (
  scope: Scope,
  orgId: string,
  query: CollectionQuery,
  { type, filter, parent }: { type: string; filter: string; parent: ResourceDefinition },
): Promise<PageRead<StoredResource> | null> => {
  const clause = parentNamed(query, filter);
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

/**
 * A scheme's work orders. The list and the records move in one transaction (a create joins it, a delete
 * leaves it, a restore joins it again), and both are read from the table, not an eventually consistent
 * index: a work order written between the two reads is answered as it was at one of them, never twice or
 * in its operations' place. In any other order, or with other filters, every listed work order is read
 * (the scheme's, not its subtree's) and the page taken in memory.
 */
export const readSchemeWorkOrders = async (
  scope: Scope,
  orgId: string,
  query: CollectionQuery,
): Promise<PageRead<StoredResource> | null> => {
  const clause = parentNamed(query, 'scheme');
  if (!clause) return null;
  const listed = await listedWorkOrders(scope, orgId, String(clause.value));
  const read = (ids: readonly string[]) =>
    batchGetInScope(
      scope,
      ids.map((id) => resourceKey(orgId, 'work-orders', id)),
    );
  const { after, limit } = query.page;
  if (after === undefined || query.filters.length > 1 || query.sort.field !== 'created_at')
    return applyInMemory(await read(listed), query);
  // Ids are UUIDv7, so the list's order is creation order: a page reads its own work orders.
  const direction = query.sort.descending ? -1 : 1;
  const ordered = direction < 0 ? listed.toReversed() : listed;
  const resume = after === 'start' ? undefined : memoryPosition(after).id;
  let next =
    resume === undefined ? 0 : ordered.findIndex((id) => direction * compareCodePoints(id, resume) > 0);
  if (next < 0) next = ordered.length;
  const page: StoredResource[] = [];
  // One read a page; another only for a work order deleted since the list was read.
  while (page.length < limit && next < ordered.length) {
    const ids = ordered.slice(next, next + limit - page.length);
    next += ids.length;
    const found = new Map((await read(ids)).map((record) => [record.id, record]));
    page.push(...ids.flatMap((id) => found.get(id) ?? []));
  }
  const last = page.at(-1);
  return {
    items: page,
    total: listed.length,
    ...(last && page.length === limit && { next: { value: valueAt(last, query.sort.path), id: last.id } }),
  };
};
