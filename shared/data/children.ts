/**
 * A parent's children (a scheme's appointments, a folder's documents) are filed on `gsi1` under
 * `<parent type>#<parent id>#<child type>`, by id (a UUIDv7, so key order is creation order), and counted
 * in `counterKey(org, <that partition>)`: `fileUnder` marks the record, and transaction.ts's `create` and
 * `delete` ops move the count by one in the record's own transaction, so no write that files or removes a
 * child can leave it out. A child moved to another parent moves its count with `refiled`.
 */
import { declareAccessPatterns, partitionFrom } from './access-patterns';
import type { CollectionQuery, PageRead } from './collection-query';
import { queryKeyRange } from './key-range';
import { batchGet, getInScope, getItem } from './repository';
import type { Scope } from './scope';
import { childCounter, counterKey, type ItemKey, keyId, type StoredResource } from './stored-resource';
import type { WriteOp } from './transaction';

/** The `gsi1` partition a parent's children of one type are filed under. */
const keys = /* @__PURE__ */ declareAccessPatterns('data/children', {
  child: {
    index: 'gsi1',
    pk: '{parent_type}#{parent_id}#{child_type}',
    sk: '{id}',
    about:
      "a parent's children, `gsi1_counted`; sk the id, or `<field, case-folded>\\u0001<id>` for a type keying them by a field (a folder's documents by name, `childSorts`); counted in `ORG#<org_id>#counters`/`<gsi1pk>`",
  },
});
export const childPartition = (parentType: string, parentId: string, childType: string) =>
  partitionFrom(keys.child, { parent_type: parentType, parent_id: parentId, child_type: childType });

/** The record filed (or moved) under `partition` at `sortKey` (by default its id), and counted there. */
export const fileUnder = <T extends StoredResource>(
  record: T,
  partition: string,
  sortKey = record.id,
): T => ({
  ...record,
  gsi1pk: partition,
  gsi1sk: sortKey,
  gsi1_counted: true,
});

/** What a `replace` moving a child from one parent to another (`from` as stored, `to` as replaced) adds to its transaction. */
export const refiled = (from: StoredResource, to: StoredResource): WriteOp[] => {
  const [left, joined] = [childCounter(from), childCounter(to)];
  if (left && joined && keyId(left) === keyId(joined)) return [];
  return [
    ...(left ? [{ count: { key: left, by: -1 } }] : []),
    ...(joined ? [{ count: { key: joined, by: 1 } }] : []),
  ];
};

/**
 * A page of a parent's children in key order (creation order, or what increases with it), read with the
 * parent. The page's Query comes first: its key needs only the parent's type and id, and its children name
 * the parent's organisation, so the parent and its count are then read in that organisation alone, in one
 * BatchGetItem, not looked up in every organisation the caller reads. Only a page with no child (an empty
 * parent, or past the end) looks the parent up in each, then reads its count. The parent is null when the
 * scope holds none; the caller then answers nothing of the page.
 */
export const queryChildren = async (
  scope: Scope,
  parent: {
    keyOf: (orgId: string, id: string) => ItemKey;
    id: string;
    /** Items the parent's answer derives from (a folder's tally), read with it into the scope's read-ahead. */
    ahead?: (orgId: string, id: string) => ItemKey[];
  },
  partition: string,
  query: CollectionQuery,
  /** Where the partition's count is kept in an organisation (by default its counter by partition). */
  counterIn: (orgId: string) => ItemKey = (orgId) => counterKey(orgId, partition),
): Promise<{ parent: StoredResource | null; page: PageRead<StoredResource> }> => {
  const page = await queryKeyRange(scope, { pk: partition, index: 'gsi1' }, query);
  const orgId = page.items[0]?.org_id;
  let record: StoredResource | null;
  let counted: number;
  if (orgId) {
    const [key, counter] = [parent.keyOf(orgId, parent.id), counterIn(orgId)];
    const ahead = parent.ahead?.(orgId, parent.id) ?? [];
    const found = await batchGet<StoredResource & { count?: number }>([key, counter, ...ahead]);
    for (const k of ahead) scope.readAhead?.set(keyId(k), found.find((i) => keyId(i) === keyId(k)) ?? null);
    record = found.find((item) => keyId(item) === keyId(key)) ?? null;
    counted = found.find((item) => keyId(item) === keyId(counter))?.count ?? 0;
  } else {
    record = await getInScope(scope, parent.keyOf, parent.id);
    counted = record ? ((await getItem<{ count?: number }>(counterIn(record.org_id)))?.count ?? 0) : 0;
  }
  // Filtered, the total is the matches' (none for a cursor page, which reads only a page of them).
  return {
    parent: record,
    page: query.filters.length > 0 ? page : { ...page, total: page.total ?? counted },
  };
};

/**
 * A page of the records filed under `partition` in key order, when no parent is read (a record's comments,
 * listed in an organisation): the count is the partition's counters in the scope's organisations, one
 * BatchGetItem in parallel with the Query.
 */
export const queryFiled = (scope: Scope, partition: string, query: CollectionQuery) =>
  queryKeyRange(scope, { pk: partition, index: 'gsi1' }, query, async () =>
    (await batchGet<{ count?: number }>(scope.orgIds.map((org) => counterKey(org, partition)))).reduce(
      (sum, counter) => sum + (counter.count ?? 0),
      0,
    ),
  );
