/**
 * A parent's children (a scheme's appointments, a folder's documents) are filed on `gsi1` under
 * `<parent type>#<parent id>#<child type>`, by id (a UUIDv7, so key order is creation order), and counted
 * in `counterKey(org, <that partition>)`: `fileUnder` marks the record, and transaction.ts's `create` and
 * `delete` ops move the count by one in the record's own transaction, so no write that files or removes a
 * child can leave it out. A child moved to another parent moves its count with `refiled`.
 */
import { declareAccessPatterns, partitionFrom } from './access-patterns';
import type { CollectionQuery, PageRead } from './collection-query';
import { learnLocation } from './id-directory';
import { queryKeyRange } from './key-range';
import { batchGet, getInScope, getItem, live, locatedOrg, readAheadOr } from './repository';
import { inScope, type Scope } from './scope';
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
 * parent. When the parent's organisation is known before anything is read (the scope's only one, or the
 * one its id directory entry or this container's memory names: `locatedOrg`), the page's Query and one
 * BatchGetItem of the parent and its count go out together, one round trip: the Query's key needs only the
 * parent's type and id. Otherwise the Query comes first and its children name the parent's organisation, so
 * the parent and its count are then read in that organisation alone, not looked up in every organisation
 * the caller reads; only a page with no child (an empty parent, or past the end) then looks the parent up
 * in each and reads its count. The parent is null when the scope holds none: the caller then answers
 * nothing of the page, which was read but is not handed on until the parent is.
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
  const pageOf = () => queryKeyRange(scope, { pk: partition, index: 'gsi1' }, query);
  /** The parent and its count in `orgId`, with what its answer derives from, in one BatchGetItem. */
  const parentIn = async (orgId: string) => {
    const [key, counter] = [parent.keyOf(orgId, parent.id), counterIn(orgId)];
    const ahead = parent.ahead?.(orgId, parent.id) ?? [];
    const found = await readAheadOr<StoredResource & { count?: number }>(scope, [key, counter, ...ahead]);
    for (const k of ahead) scope.readAhead?.set(keyId(k), found.find((i) => keyId(i) === keyId(k)) ?? null);
    const record = found.find((item) => keyId(item) === keyId(key));
    return {
      record: record && inScope(scope, record.org_id) && live(record) ? record : null,
      counted: found.find((item) => keyId(item) === keyId(counter))?.count ?? 0,
    };
  };
  const located = locatedOrg(scope, parent.keyOf, parent.id);
  let page: PageRead<StoredResource>;
  let read: { record: StoredResource | null; counted: number };
  if (located !== undefined) [page, read] = await Promise.all([pageOf(), parentIn(located)]);
  else {
    page = await pageOf();
    const orgId = page.items[0]?.org_id;
    if (orgId) read = await parentIn(orgId);
    else {
      const record = await getInScope(scope, parent.keyOf, parent.id);
      read = {
        record,
        counted: record ? ((await getItem<{ count?: number }>(counterIn(record.org_id)))?.count ?? 0) : 0,
      };
    }
  }
  if (read.record) learnLocation(parent.id, read.record.org_id);
  // Filtered, the total is the matches' (none for a cursor page, which reads only a page of them).
  return {
    parent: read.record,
    page: query.filters.length > 0 ? page : { ...page, total: page.total ?? read.counted },
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
