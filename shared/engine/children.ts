/**
 * Collections under one parent (a scheme's appointments, a plan's risks, an agent's briefings, …). An
 * indexed filter on a per-parent pattern (a folder's documents, a pack's hazards, by status) reads its key
 * range in the parent (indexed-filters.ts). Otherwise the children come either from the ids the parent
 * lists (BatchGetItem, strongly bounded) or from the parent's `gsi1` partition (data/children.ts), where
 * each is filed and counted, keyed by id or by the field its type orders its children by (`childSorts`). In
 * a sort the key serves, only the page is read: a Query of the partition (`offset + limit` items, or a page
 * after the cursor's key; filters applied by DynamoDB, the matches read in full to count them) and the
 * parent and the partition's count, together when the parent's organisation is known first
 * (data/children.ts); or, unfiltered, the page of the listed ids (sorted, they are in creation order) and
 * the list's length. Sorted otherwise, every child is read and filters, sort and page apply in memory.
 * Nothing is answered unless the parent is in the caller's scope (404 otherwise); read, the parent serves
 * an include of it.
 */
import { childPartition, fileUnder, queryChildren } from '../data/children';
import type { CollectionQuery } from '../data/collection-query';
import { applyInMemory } from '../data/in-memory-collection';
import { batchGetInScope, locatedOrg, readIndex } from '../data/repository';
import { counterKey, type StoredResource } from '../data/stored-resource';
import { type CollectionRequest, listResources, readIndexed } from './collection';
import { indexedRead } from './indexed-filters';
import { declaredType, type ResourceDefinition } from './resource-definition';
import { relatedIds } from './serialise';
import { notFound, readInScope } from './single';
import { childSortKey } from './stored';

/** The `gsi1` partition children of a parent are filed under: `<parent type>#<parent id>#<child type>`. */
export const childIndexKey = (parent: StoredResource, type: string) =>
  childPartition(parent.type, parent.id, type);

/** A child filed, and counted, under its parent, at the key its type orders its children by. */
export const fileChild = <T extends StoredResource>(parent: StoredResource, record: T): T => {
  const definition = declaredType(record.type);
  return fileUnder(
    record,
    childIndexKey(parent, record.type),
    definition && childSortKey(definition, record),
  );
};

/** Whether the page can be read in the partition's key order: its sort is one the key serves. */
const inKeyOrder = (child: ResourceDefinition, query: CollectionQuery) =>
  (child.childSorts ?? ['created_at']).includes(query.sort.field);

/** Whether the page's include names its parent (a relationship of the child's to the parent's type). */
const includesParent = (child: ResourceDefinition, parent: ResourceDefinition, query: CollectionQuery) =>
  query.include.some(([name]) => name !== undefined && child.relationships[name]?.type === parent.type);

export const listChildren = async (
  request: CollectionRequest,
  parent: ResourceDefinition,
  parentId: string,
  child: ResourceDefinition,
  /** The parent's relationship listing the children; without it, the parent's `gsi1` partition. */
  listedAs?: string,
) => {
  const { scope } = request;
  const partition = childPartition(parent.type, parentId, child.type);
  return listResources(request, child, async (query) => {
    const named = includesParent(child, parent, query);
    // The parent, as an include of it answers (derived: a folder's counts), when the include names it.
    const answered = async (record: StoredResource) =>
      !parent.derive ? [record] : named ? parent.derive(scope, [record]) : [];
    // An indexed filter (a folder's documents, a pack's hazards, by status) reads its key range in the parent,
    // bounded by its matches; before a parent's listed ids, which it would read whole.
    const through = Object.entries(child.relationships).find(([, r]) => r.type === parent.type)?.[0];
    const parentPart = through ? { [`rels.${through}`]: parentId } : {};
    // Whether a per-parent pattern answers is the same in every organisation: asked before the parent is read.
    if (through && indexedRead(child, '', query, parentPart)) {
      // A per-parent counted filter is counted on the parent's children counter (stored.ts).
      const pageIn = async (orgId: string) => {
        const indexed = indexedRead(child, orgId, query, parentPart);
        return indexed && readIndexed(scope, counterKey(orgId, partition), indexed, query);
      };
      // The parent's organisation known before it is read, the page is read beside it (answered only with it).
      const located = locatedOrg(scope, parent.keyOf, parentId);
      const [record, page] =
        located === undefined
          ? await readInScope(scope, parent, parentId).then(async (r) => [r, await pageIn(r.org_id)] as const)
          : await Promise.all([readInScope(scope, parent, parentId), pageIn(located)]);
      if (page) return { ...page, inHand: await answered(record) };
    }
    if (listedAs) {
      const record = await readInScope(scope, parent, parentId);
      const keys = (ids: readonly string[]) => ids.map((id) => child.keyOf(record.org_id, id));
      const ids = relatedIds(record, listedAs);
      if (query.filters.length > 0 || !inKeyOrder(child, query))
        return {
          ...applyInMemory(await batchGetInScope(scope, keys(ids)), query),
          inHand: await answered(record),
        };
      // Ids are UUIDv7: in id order they are in creation order, so the page is chosen before it is read.
      const chosen = applyInMemory(
        ids.map((id) => ({ id })),
        { ...query, sort: { ...query.sort, path: 'id' } },
      );
      const found = new Map(
        (await batchGetInScope(scope, keys(chosen.items.map((c) => c.id)))).map((r) => [r.id, r]),
      );
      return {
        items: chosen.items.flatMap((c) => found.get(c.id) ?? []),
        total: chosen.total,
        ...(chosen.next !== undefined && { next: chosen.next }),
        inHand: await answered(record),
      };
    }
    if (!inKeyOrder(child, query)) {
      const [record, items] = await Promise.all([
        readInScope(scope, parent, parentId),
        readIndex(scope, partition),
      ]);
      return { ...applyInMemory(items, query), inHand: await answered(record) };
    }
    // What the parent's answer derives from is read with it when the include names it.
    const ahead = named ? parent.derivedKeys : undefined;
    const read = await queryChildren(scope, { keyOf: parent.keyOf, id: parentId, ahead }, partition, query);
    if (!read.parent) throw notFound(parent, parentId);
    return { ...read.page, inHand: await answered(read.parent) };
  });
};
