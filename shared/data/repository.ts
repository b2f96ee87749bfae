/**
 * Reads and writes of tenant records. Every read is bounded by a `Scope`; every request path is a
 * GetItem, BatchGetItem, Query or TransactWriteItems (see README.md beside this file). No Scan.
 */

import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  QueryCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from './clients';
import { compareCodePoints } from './collation';
import {
  type CollectionQuery,
  type PageRead,
  type Position,
  positionObject,
  UnfitPosition,
} from './collection-query';
import { buildFilterExpression } from './filter-expression';
import { directoryOrg, learnLocation } from './id-directory';
import type { Scope } from './scope';
import { inScope } from './scope';
import type { ItemKey, StoredResource } from './stored-resource';
import { counterKey, keyId } from './stored-resource';
import { onlyPartition, partitionsOf } from './time-buckets';

const BATCH_GET_MAX = 100;
/**
 * The largest `Limit` DynamoDB takes (a 32-bit integer). A page holds at most 1 MB whatever it is, so
 * asking for more than this (a deep offset) only means "to the end of the partition", page by page.
 */
const QUERY_LIMIT_MAX = 2 ** 31 - 1;
const MAX_ATTEMPTS = 8;
const BATCH_GETS_IN_FLIGHT = 8;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** BatchGetItem in chunks of 100, retrying `UnprocessedKeys` with backoff. Order of results is not kept. */
export const batchGet = async <T = StoredResource>(keys: readonly ItemKey[]): Promise<T[]> => {
  const unique = [...new Map(keys.map((k) => [keyId(k), k])).values()];
  const chunks: ItemKey[][] = [];
  for (let i = 0; i < unique.length; i += BATCH_GET_MAX) chunks.push(unique.slice(i, i + BATCH_GET_MAX));
  const readChunk = async (chunk: ItemKey[]) => {
    const found: T[] = [];
    let pending: Record<string, unknown>[] | undefined = chunk as unknown as Record<string, unknown>[];
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      if (attempt === MAX_ATTEMPTS) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
      if (attempt > 0) await pause(25 * 2 ** attempt);
      const out: BatchGetCommandOutput = await documents.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }),
      );
      found.push(...((out.Responses?.[tableName] ?? []) as T[]));
      pending = out.UnprocessedKeys?.[tableName]?.Keys;
    }
    return found;
  };
  // A request's includes are a few chunks; an import's look-ups can be a thousand: keep 8 in flight.
  const pages: T[][] = [];
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const index = next++;
      pages[index] = await readChunk(chunks[index] ?? []);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_GETS_IN_FLIGHT, chunks.length) }, worker));
  return pages.flat();
};

/**
 * Whether a record has not expired: records with a TTL (`expires_at`, epoch seconds) are gone from the
 * moment it passes, though DynamoDB may delete them hours later.
 */
export const live = (item: { expires_at?: unknown }, now = Date.now()): boolean =>
  typeof item.expires_at !== 'number' || item.expires_at * 1000 > now;

/** The items behind `keys` by `keyId`, null where absent: one BatchGetItem for up to 100 keys. */
export const readTogether = async (keys: readonly ItemKey[]): Promise<Map<string, unknown>> => {
  const found = new Map((await batchGet<ItemKey>(keys)).map((item) => [keyId(item), item]));
  return new Map(keys.map((key) => [keyId(key), found.get(keyId(key)) ?? null]));
};

/**
 * The records behind `keys` that lie inside the scope and are live; anything else is as good as absent.
 * Keys the scope read ahead are taken from it (once) instead of read again.
 */
export const batchGetInScope = async (scope: Scope, keys: readonly ItemKey[]): Promise<StoredResource[]> =>
  (await readAheadOr<StoredResource>(scope, keys)).filter(
    (item) => inScope(scope, item.org_id) && live(item),
  );

/**
 * Items the request has just written or read on its way, handed to its own next read of them as if read
 * ahead: an answer built from what was written (a new folder's empty tally) reads nothing after the write.
 */
export const holdAhead = (scope: Scope, items: readonly ItemKey[]) => {
  for (const item of items) scope.readAhead?.set(keyId(item), item);
};

/**
 * `batchGetInScope` of `keys`, with `ahead` (what those records' answers derive from: a folder's tally)
 * read in the same BatchGetItem and held for the request's next read of them.
 */
export const batchGetInScopeWith = async (
  scope: Scope,
  keys: readonly ItemKey[],
  ahead: readonly ItemKey[],
): Promise<StoredResource[]> => {
  const found = new Map(
    (await readAheadOr<StoredResource>(scope, [...keys, ...ahead])).map((item) => [keyId(item), item]),
  );
  // Absent is an answer too: held as null, it is not asked for again.
  for (const key of ahead) scope.readAhead?.set(keyId(key), found.get(keyId(key)) ?? null);
  return [...new Set(keys.map(keyId))].flatMap((id) => {
    const item = found.get(id);
    return item && inScope(scope, item.org_id) && live(item) ? [item] : [];
  });
};

/**
 * The items behind `keys`: those the scope read ahead taken from it (once), the rest in one BatchGetItem
 * per 100. For records derived from records already in the scope (a scheme's progress), whose keys the
 * caller built from them; tenant records themselves go through `batchGetInScope`.
 */
export const readAheadOr = async <T>(scope: Scope, keys: readonly ItemKey[]): Promise<T[]> => {
  const held: unknown[] = [];
  const unread = keys.filter((key) => {
    const id = keyId(key);
    if (!scope.readAhead?.has(id)) return true;
    held.push(scope.readAhead.get(id));
    scope.readAhead.delete(id);
    return false;
  });
  return [...(held.filter(Boolean) as T[]), ...(await batchGet<T>(unread))];
};

/**
 * One record by id: in the organisation it was read ahead in, or the one the id directory names when its
 * entry was read ahead and lies in the scope (`id-directory.ts`); otherwise looked up in each organisation of the scope at once (one
 * BatchGetItem), as for an id the directory does not know (a record older than it, or none at all).
 */
export const getInScope = async (
  scope: Scope,
  keyOf: (orgId: string, id: string) => ItemKey,
  id: string,
): Promise<StoredResource | null> => {
  const located = locatedOrg(scope, keyOf, id);
  const orgIds = located === undefined ? scope.orgIds : [located];
  const [found] = await batchGetInScope(
    scope,
    orgIds.map((org) => keyOf(org, id)),
  );
  if (found) learnLocation(id, found.org_id);
  return found ?? null;
};

/**
 * The one organisation of the scope a record can lie in, when that is known before it is read: the
 * scope's only one, the one it was read ahead in (where this container last found it), or the one its id
 * directory entry, read ahead with the credentials, names. Undefined when it may lie in any of several.
 */
export const locatedOrg = (
  scope: Scope,
  keyOf: (orgId: string, id: string) => ItemKey,
  id: string,
): string | undefined => {
  if (scope.orgIds.length === 1) return scope.orgIds[0];
  const held = scope.orgIds.find((org) => scope.readAhead?.get(keyId(keyOf(org, id))));
  return held ?? directoryOrg(scope, id);
};

/** One item by key; `consistent` for state a write decides on. */
export const getItem = async <T>(key: ItemKey, consistent = false): Promise<T | null> =>
  ((await documents.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: consistent })))
    .Item as T | undefined) ?? null;

/**
 * One record of a known organisation with a strongly consistent GetItem, for state a write decides on
 * (a scheme's duty holders); null outside the scope.
 */
export const getConsistent = async (scope: Scope, key: ItemKey & { orgId: string }) => {
  if (!inScope(scope, key.orgId)) return null;
  const out = await documents.send(
    new GetCommand({ TableName: tableName, Key: { pk: key.pk, sk: key.sk }, ConsistentRead: true }),
  );
  return (out.Item as StoredResource | undefined) ?? null;
};

/** Every record filed under one `gsi1` key (a parent's children), oldest first, inside the scope. */
export const readIndex = async (scope: Scope, gsi1pk: string): Promise<StoredResource[]> =>
  (
    await queryItems({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :g',
      ExpressionAttributeValues: { ':g': gsi1pk },
    })
  ).filter((item) => inScope(scope, item.org_id));

const sortValue = (item: StoredResource, query: CollectionQuery): string =>
  (query.sort.index ? item[query.sort.index] : item.sk) ?? '';

type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;

/** Where DynamoDB cuts a Query's page: once it has read 1 MB of items. */
const PAGE_BYTES = 1024 * 1024;
/** Read capacity counts 4 KB blocks, half a unit each for an eventually consistent read. */
const BYTES_PER_READ_UNIT = 8 * 1024;
/** The first page's ask, before the items' size is known. */
const FIRST_PAGE_ITEMS = 1000;

/**
 * How many items the page after `out` asks for: as many as DynamoDB's 1 MB page holds, at the size of the
 * items `out` read (from the capacity DynamoDB counted for them); `limit` again if it counted none.
 */
const pageItems = (out: QueryCommandOutput, limit: number) => {
  const units = out.ConsumedCapacity?.CapacityUnits ?? 0;
  const read = out.ScannedCount ?? 0;
  return units > 0 && read > 0
    ? Math.max(1, Math.floor((read * PAGE_BYTES) / (units * BYTES_PER_READ_UNIT)))
    : limit;
};

/**
 * The items to read for `wanted` matches of a filter that keeps `share` of them: `wanted / share`, and the
 * misses' own spread again (about twice the square root of the misses expected) so that a page seldom comes
 * back short: a short page's next read is a whole 1 MB page. At a share of 1, exactly `wanted`.
 */
const shareAsk = (wanted: number, share: number) => {
  if (share >= 1 || !Number.isFinite(wanted)) return wanted;
  const misses = (wanted * (1 - share)) / share;
  return Math.ceil(wanted + misses + 2 * Math.sqrt(misses));
};

/**
 * Pages through a Query until `wanted` items (or the end) are in hand, from the start or after the key
 * `from`. With `Limit`, the first page asks for no more than is wanted: without a filter every item read
 * is returned, so nothing is over-read, and later pages ask for what is still wanted. With a filter, a
 * page that came back short asks next for what DynamoDB's 1 MB page holds of its items (`pageItems`):
 * asking one page-size per Query made a rare match cost thousands of round trips (issue 42). A filter known
 * to keep a `share` of the items (a counted value's count over the type's) asks first for the items that
 * share should fill the page from, and a little over (`shareAsk`); a page that still came back short asks
 * again for twice as many, up to a 1 MB page.
 */
export const queryItems = async <T = StoredResource>(
  input: QueryInput,
  wanted = Number.POSITIVE_INFINITY,
  from?: Record<string, unknown>,
  share = 1,
): Promise<T[]> => {
  const items: T[] = [];
  const filtered = input.FilterExpression !== undefined;
  let ExclusiveStartKey: Record<string, unknown> | undefined = from;
  let limit = input.Limit === undefined ? undefined : shareAsk(Math.min(input.Limit, wanted), share);
  do {
    const out: QueryCommandOutput = await documents.send(
      new QueryCommand({
        TableName: tableName,
        ...input,
        ...(limit !== undefined && { Limit: Math.min(limit, QUERY_LIMIT_MAX) }),
        ...(limit !== undefined && filtered && { ReturnConsumedCapacity: 'TOTAL' }),
        ExclusiveStartKey,
      }),
    );
    items.push(...((out.Items ?? []) as T[]));
    ExclusiveStartKey = out.LastEvaluatedKey;
    if (limit !== undefined && input.Limit !== undefined) {
      const still = wanted - items.length;
      // A known share asks again for what it should still need, at least twice the last ask (a sparse
      // stretch takes a few calls, never one a match), up to a 1 MB page.
      const page = pageItems(out, FIRST_PAGE_ITEMS);
      const again =
        share < 1 && limit !== undefined ? Math.min(page, Math.max(shareAsk(still, share), 2 * limit)) : page;
      limit = filtered ? Math.max(still, again) : Math.min(input.Limit, still);
    }
  } while (ExclusiveStartKey && items.length < wanted);
  return items;
};

/**
 * Where a cursor page of a collection ended, in each organisation's partition: the key of the last
 * record taken from it (its `sk`, and the sort index's value), which is the `ExclusiveStartKey` that
 * partition resumes from. Organisations the pages have taken nothing from yet start at the beginning.
 */
type PartitionPositions = Record<string, { sk: string; value?: string }>;

/** The positions `queryCollection` wrote for `query`'s sort (an index's value with each key only when it reads an index), or `UnfitPosition`. */
const partitionPositions = (after: Position, query: CollectionQuery): PartitionPositions => {
  const positions = Object.values(positionObject(after));
  const fits = positions.every((position) => {
    if (typeof position !== 'object' || position === null) return false;
    const { sk, value, ...rest } = position as Record<string, unknown>;
    const valued = query.sort.index ? typeof value === 'string' : value === undefined;
    return typeof sk === 'string' && valued && Object.keys(rest).length === 0;
  });
  if (!fits) throw new UnfitPosition();
  return { ...(after as PartitionPositions) };
};

/**
 * Reads one organisation's records of a type in sort order until `wanted` records (or the end) are in
 * hand: its partition, or a bucketed type's partitions one after another in key order (time-buckets.ts),
 * from the one the cursor's last key is in.
 */
const queryPartition = async (
  orgId: string,
  type: string,
  query: CollectionQuery,
  wanted: number,
  after?: { sk: string; value?: string },
) => {
  const filter = buildFilterExpression(query.filters);
  const { index } = query.sort;
  const partitions = partitionsOf(orgId, type, { descending: query.sort.descending, from: after?.sk, index });
  const items: StoredResource[] = [];
  for (const [i, pk] of partitions.entries()) {
    const still = wanted - items.length;
    const from = i === 0 && after ? { pk, sk: after.sk, ...(index && { [index]: after.value }) } : undefined;
    const read = await queryItems(
      {
        ...(index && { IndexName: index }),
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': 'pk', ...filter?.names },
        ExpressionAttributeValues: { ':pk': pk, ...filter?.values },
        ...(filter && { FilterExpression: filter.expression }),
        // Without a filter every item read is returned; with one, later reads ask for 1 MB pages (`queryItems`).
        ...(Number.isFinite(still) && { Limit: still }),
        ScanIndexForward: !query.sort.descending,
      },
      still,
      from,
    );
    items.push(...read);
    if (items.length >= wanted) break;
  }
  return items;
};

const countersOf = async (scope: Scope, type: string): Promise<number> => {
  const counters = await batchGet<{ count?: number }>(scope.orgIds.map((org) => counterKey(org, type)));
  return counters.reduce((sum, c) => sum + (c.count ?? 0), 0);
};

/**
 * One page of a collection across the scope's organisations, and the collection's total.
 * By offset, unfiltered: the page query reads `offset + limit` items and the total comes from the
 * counters, read in parallel. By offset, filtered: the matching records are read in full, which also
 * counts them. By cursor: each partition resumes where the last page left it and reads at most a page,
 * at any depth; the total comes from the counters, or is not counted when filtered.
 */
export const queryCollection = async (
  scope: Scope,
  type: string,
  query: CollectionQuery,
): Promise<PageRead<StoredResource>> => {
  const { limit, offset, after } = query.page;
  const filtered = query.filters.length > 0;
  const positions = after && after !== 'start' ? partitionPositions(after, query) : {};
  const wanted = after ? limit : filtered ? Number.POSITIVE_INFINITY : offset + limit;
  const [partitions, counted] = await Promise.all([
    Promise.all(scope.orgIds.map((org) => queryPartition(org, type, query, wanted, positions[org]))),
    filtered ? Promise.resolve(undefined) : countersOf(scope, type),
  ]);
  const direction = query.sort.descending ? -1 : 1;
  const merged = partitions.flat();
  // A stable sort: records with equal values keep their partition's own order, so each partition's
  // records in a page are the next ones it holds, and its position after the page is its last one.
  if (partitions.length > 1) {
    merged.sort((a, b) => direction * compareCodePoints(sortValue(a, query), sortValue(b, query)));
  }
  if (!after) return { items: merged.slice(offset, offset + limit), total: counted ?? merged.length };
  const items = merged.slice(0, limit);
  for (const item of items) {
    positions[item.org_id] = { sk: item.sk, ...(query.sort.index && { value: item[query.sort.index] }) };
  }
  return { items, total: counted, ...(items.length === limit && { next: positions }) };
};

/** Where a partition's reading stopped: DynamoDB's own key, kept by an export job's checkpoint. */
export type PageKey = Record<string, unknown>;

/**
 * One organisation's collection in sort order, page by page, with the query's filters applied by
 * DynamoDB: for exports, which must never hold a whole collection. The pages are DynamoDB's own (1 MB),
 * asked for by count: DynamoDB Local, asked for no `Limit`, reads the rest of the partition before it
 * cuts a 1 MB page, so paging a large one costs the square of its size (the bench: 100,000 locations
 * took 234 s, 12 s with a limit); and asked for fewer items than 1 MB holds, its pages cost more the
 * further in they start (at 400,000 locations, pages of 1,000 read 5,470 rows/s, of 2,000 7,300).
 * So the first page asks for `FIRST_PAGE_ITEMS` and each later one for what 1 MB holds of its items
 * (`pageItems`). Each page comes with the key the next starts from (none after the last), so a job can
 * resume `from` it; the next page is already being read while one is handed on.
 */
export async function* streamPartition(
  scope: Scope,
  orgId: string,
  type: string,
  query: Pick<CollectionQuery, 'filters' | 'sort'>,
  {
    from,
    sparse,
  }: {
    from?: PageKey;
    /**
     * A sparse `gsi1` partition holding just the records the filters select (attendances open on a site),
     * read instead of the type's own, in its key order.
     */
    sparse?: string;
  } = {},
): AsyncGenerator<{ items: StoredResource[]; next?: PageKey }> {
  if (!inScope(scope, orgId)) return;
  const filter = buildFilterExpression(query.filters);
  const index = sparse ? 'gsi1' : query.sort.index;
  const read = (pk: string, ExclusiveStartKey: PageKey | undefined, Limit: number) => {
    const out = documents.send(
      new QueryCommand({
        TableName: tableName,
        ...(index && { IndexName: index }),
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': sparse ? 'gsi1pk' : 'pk', ...filter?.names },
        ExpressionAttributeValues: { ':pk': pk, ...filter?.values },
        ...(filter && { FilterExpression: filter.expression }),
        ScanIndexForward: sparse ? true : !query.sort.descending,
        Limit,
        ExclusiveStartKey,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    // A reader that stops early never awaits the page read ahead; its failure is nobody's.
    out.catch(() => undefined);
    return out;
  };
  // A bucketed type's months one after another (time-buckets.ts), from the one `from` is in.
  const partitions = sparse
    ? [sparse]
    : partitionsOf(orgId, type, {
        descending: query.sort.descending,
        from: from?.sk as string | undefined,
        index: query.sort.index,
      });
  let limit = FIRST_PAGE_ITEMS;
  for (const [i, pk] of partitions.entries()) {
    const last = i === partitions.length - 1;
    let pending: Promise<QueryCommandOutput> = read(pk, i === 0 ? from : undefined, limit);
    for (;;) {
      const out = await pending;
      const items = (out.Items ?? []) as StoredResource[];
      limit = pageItems(out, limit);
      if (out.LastEvaluatedKey) pending = read(pk, out.LastEvaluatedKey, limit);
      // At a bucket's end with more to come, the next page resumes after its last item (never "the end").
      const final = items.at(-1);
      const next = out.LastEvaluatedKey ?? (last ? undefined : final && { pk: final.pk, sk: final.sk });
      if (out.LastEvaluatedKey || last || next) yield { items: items.filter((item) => live(item)), next };
      if (!out.LastEvaluatedKey) break;
    }
  }
}

/** A GetItem on a key that never exists: proves the table answers, for the status endpoint. */
export const pingTable = async (): Promise<void> => {
  await getItem({ pk: 'STATUS', sk: 'STATUS' });
};

/**
 * Every live record of a small, bounded collection (custom roles; device backups, which expire), for
 * in-memory filtering and sorting. Expired records are filtered out by DynamoDB before they are returned.
 */
export const readPartition = async (scope: Scope, orgId: string, type: string): Promise<StoredResource[]> =>
  inScope(scope, orgId)
    ? queryItems({
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: 'attribute_not_exists(expires_at) OR expires_at > :now',
        ExpressionAttributeValues: {
          ':pk': onlyPartition(orgId, type),
          ':now': Math.floor(Date.now() / 1000),
        },
      })
    : [];

/** Records of one organisation's collection whose sort-index value starts with `prefix` (search). */
export const queryIndexPrefix = (
  scope: Scope,
  orgId: string,
  type: string,
  index: 'lsi1' | 'lsi2',
  prefix: string,
) =>
  inScope(scope, orgId)
    ? queryItems({
        IndexName: index,
        KeyConditionExpression: 'pk = :pk AND begins_with(#k, :p)',
        ExpressionAttributeNames: { '#k': index },
        ExpressionAttributeValues: { ':pk': onlyPartition(orgId, type), ':p': prefix },
      })
    : Promise.resolve([]);
