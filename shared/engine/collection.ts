/**
 * The collection engine's back half, for every collection endpoint: parse the query against the
 * resource's declared options, read one page within the scope, resolve includes, build the document.
 */

import { sortKeyText } from '../data/collation';
import {
  type CollectionQuery,
  type FilterClause,
  type PageRead,
  UnfitPosition,
  valueAt,
} from '../data/collection-query';
import { cursorKey } from '../data/cursor-key';
import { queryByBox } from '../data/geo-index';
import { applyInMemory } from '../data/in-memory-collection';
import type { Kept } from '../data/kept';
import { countKeyRange, queryKeyRange } from '../data/key-range';
import { settingsKey, settingsOf } from '../data/organisation-settings';
import { getItem, queryCollection, readAheadOr, streamPartition } from '../data/repository';
import { queryKept } from '../data/retention';
import type { Scope } from '../data/scope';
import { SORT_KEY_MAX_BYTES } from '../data/storage-limits';
import { collectionPartition, counterKey, type ItemKey, type StoredResource } from '../data/stored-resource';
import { isBucketed } from '../data/time-buckets';
import {
  type CollectionOptions,
  featuresMeta,
  namesPageSize,
  type ParsedCollectionQuery,
  parseCollectionQuery,
  type QueryParameters,
} from '../jsonapi/collection-query';
import { openCursor, sealCursor, unfitCursor } from '../jsonapi/cursor';
import {
  type CollectionDocument,
  type CollectionPage,
  collectionDocument,
  type ResourceObject,
} from '../jsonapi/document';
import type { RequestTarget } from '../jsonapi/document-links';
import { claimOf, readClaimed } from './claimed-filters';
import { resolveIncludes } from './includes';
import { indexedRead } from './indexed-filters';
import type { ResourceDefinition } from './resource-definition';
import { toResourceObject } from './serialise';

/** The request a collection answers: its scope, and its URL for the links (`ApiRequest` is one). */
export interface CollectionRequest extends RequestTarget {
  scope: Scope;
}

type PageReader = (query: CollectionQuery) => Promise<PageRead<StoredResource>>;

/**
 * What a cursor is sealed to: the collection's path, the query's order and filters, and the
 * organisations the caller reads (a cursor of another caller's, or from before a grant changed, is refused).
 */
export const cursorBinding = (
  request: { path: string; scope: Pick<Scope, 'orgIds'> },
  query: Pick<CollectionQuery, 'sort' | 'filters'>,
) =>
  JSON.stringify([
    request.path,
    query.sort.field,
    query.sort.descending,
    query.filters,
    request.scope.orgIds,
  ]);

/**
 * A page read after a cursor's position. The cursor is sealed, so the service made it: a position its
 * reader cannot resume from is another reader's (an older release's), and a 400, never a 500.
 */
const resumed = async <T>(
  read: (query: CollectionQuery) => Promise<PageRead<T>> | PageRead<T>,
  paged: CollectionQuery,
): Promise<PageRead<T>> => {
  try {
    return await read(paged);
  } catch (error) {
    throw error instanceof UnfitPosition ? unfitCursor() : error;
  }
};

/**
 * The page a collection request asks for: by offset, or by cursor (`page[cursor]`), whose position the
 * page reads after, and whose next cursor its document carries. One `read` serves both.
 */
export const readPage = async <T>(
  request: CollectionRequest,
  parsed: ParsedCollectionQuery,
  read: (query: CollectionQuery) => Promise<PageRead<T>> | PageRead<T>,
): Promise<PageRead<T> & { query: CollectionQuery; cursor?: string }> => {
  const { cursor, ...query } = parsed;
  if (cursor === undefined) return { ...(await read(query)), query };
  const binding = cursorBinding(request, query);
  const after = cursor === '' ? 'start' : openCursor(await cursorKey(), binding, cursor);
  const paged = { ...query, page: { ...query.page, after } };
  const page = await resumed(read, paged);
  return {
    ...page,
    query: paged,
    ...(page.next !== undefined && { cursor: sealCursor(await cursorKey(), binding, page.next) }),
  };
};

/** The document of a page read by `readPage`. */
export const pageDocument = (
  request: RequestTarget,
  page: { query: CollectionQuery; total?: number; cursor?: string },
  members: Pick<CollectionPage, 'data' | 'included' | 'features'>,
): CollectionDocument =>
  collectionDocument(request, {
    ...members,
    page: page.query.page,
    ...(page.total !== undefined && { total: page.total }),
    ...(page.cursor !== undefined && { next: page.cursor }),
  });

/** Every record of a sparse index's partition (`sparseIndex`), the query's filters applied. */
const readSparse = async (
  scope: Scope,
  orgId: string,
  definition: ResourceDefinition,
  query: CollectionQuery,
  sparse: string,
) => {
  const items: StoredResource[] = [];
  for await (const page of streamPartition(scope, orgId, definition.type, query, { sparse }))
    items.push(...page.items);
  return applyInMemory(items, query);
};

/** Where a cursor page sorted in memory ended (`applyInMemory`): the last record's sort value and id. */
interface SortPosition {
  value?: unknown;
  id: string;
}

/**
 * A page of a counted value in a sort its own index keeps, when the value is common (`byValueOrBySort`):
 * the sort index read with the filter, so a page reads about `1 / share` × its items, where the value's
 * index would read all its matches to sort them. Its cursor is the position the in-memory sort names
 * (the last record's sort value and id, from which the index key is rebuilt: `sk` is the id, the index
 * value its collation text), so a walk may cross between the two as counts change.
 */
const readBySortIndex = async (
  scope: Scope,
  partition: string,
  index: 'lsi1' | 'lsi2',
  query: CollectionQuery,
  matching: number,
  share: number,
): Promise<PageRead<StoredResource>> => {
  const { after } = query.page;
  const resume =
    after && after !== 'start'
      ? (({ value, id }: SortPosition) => ({ pk: partition, sk: id, [index]: sortKeyText(value) }))(
          after as SortPosition,
        )
      : after;
  const paged = { ...query, page: { ...query.page, after: resume } };
  const page = await queryKeyRange(
    scope,
    { pk: partition, index },
    paged,
    undefined,
    async () => matching,
    share,
  );
  const last = page.items.at(-1);
  return {
    items: page.items,
    total: matching,
    ...(page.next && last && { next: { value: valueAt(last, query.sort.path), id: last.id } }),
  };
};

/**
 * Whether a counted value is read through the query's sort index rather than its own: when the sort
 * index, read with the filter, reads fewer items for the page (about `(offset + limit) / share`) than the
 * value's index does (all its `matching` records, to sort them). At 10,000 records and a page of 25 that
 * is a share of 5 % or more (`share² × count ≥ offset + limit`): a common value (active users) reads about
 * its page, a rare one (suspended) its few matches.
 */
const bySortIndex = (query: CollectionQuery, matching: number, share: number) =>
  share > 0 &&
  // A cursor sealed before this read existed (another position's shape) resumes as it was read then.
  (typeof query.page.after !== 'object' ||
    typeof (query.page.after as Partial<SortPosition>).id === 'string') &&
  (query.page.after === undefined ? query.page.offset : 0) + query.page.limit < share * matching;

/**
 * A page through an indexed filter's key range (indexed-filters.ts): in the range's key order when that is
 * the query's sort; else, for a common counted value in a sort an index keeps, through that index
 * (`bySortIndex`); else the range whole (its matches, never the partition), sorted in memory.
 */
export const readIndexed = async (
  scope: Scope,
  counterOf: ItemKey,
  { range, sorted, total }: NonNullable<ReturnType<typeof indexedRead>>,
  query: CollectionQuery,
  /** The type's one partition (not bucketed), whose sort indexes a common value may be read through. */
  partition?: string,
): Promise<PageRead<StoredResource>> => {
  // A value longer than any key holds names nothing (stored values that become keys are at most 255 characters).
  if (Buffer.byteLength(range.to ?? '') > SORT_KEY_MAX_BYTES) return { items: [], total: 0 };
  const counts = async () => (await getItem<Record<string, number>>(counterOf)) ?? {};
  const matches =
    total === 'read'
      ? undefined
      : total === 'count'
        ? () => countKeyRange(range, query.filters)
        : async () => (await counts())[total.counter] ?? 0;
  if (sorted) return queryKeyRange(scope, range, query, undefined, matches);
  const { index } = query.sort;
  if (partition && index && typeof total === 'object') {
    const counted = await counts();
    const matching = counted[total.counter] ?? 0;
    const share = Math.min(1, matching / Math.max(1, counted.count ?? 0));
    if (bySortIndex(query, matching, share))
      return readBySortIndex(scope, partition, index, query, matching, share);
  }
  const whole = { ...query, page: { limit: Number.MAX_SAFE_INTEGER, offset: 0 } };
  return applyInMemory((await queryKeyRange(scope, range, whole)).items, query);
};

/**
 * A page from the table: through a sparse index when the filters select one of its partitions; through a
 * parent's subtree for a `subtree` filter; through a unique value's claim; through an indexed filter's key range; through the geohash index when a box filter is on the indexed point.
 */
export const readCollectionPage = async (
  scope: Scope,
  definition: ResourceDefinition,
  query: CollectionQuery,
) => {
  const [orgId, ...others] = scope.orgIds;
  const sparse = orgId && others.length === 0 ? definition.sparseIndex?.(orgId, query.filters) : null;
  if (orgId && sparse) return readSparse(scope, orgId, definition, query, sparse);
  const under = orgId && others.length === 0 ? await definition.readSubtree?.(scope, orgId, query) : null;
  if (under) return under;
  // A unique value's claim names its one record: read before any index range (claimed-filters.ts).
  const claim = orgId && others.length === 0 ? claimOf(definition, orgId, query) : null;
  if (orgId && claim) return readClaimed(definition, orgId, claim, query);
  const indexed = orgId && others.length === 0 ? indexedRead(definition, orgId, query) : null;
  if (orgId && indexed) {
    const partition = isBucketed(definition.type) ? undefined : collectionPartition(orgId, definition.type);
    return readIndexed(scope, counterKey(orgId, definition.type), indexed, query, partition);
  }
  const box = query.filters.find(
    (f): f is Extract<FilterClause, { op: 'box' }> => f.op === 'box' && f.path === definition.geoIndex?.path,
  );
  return box
    ? queryByBox(scope, definition.type, query, box)
    : queryCollection(scope, definition.type, query);
};

/**
 * The page size of a collection read within one organisation that names none: the organisation's
 * `default_page_size` setting (its record read with the credentials: `pageSizeAhead`); the API's
 * default across organisations.
 */
const defaultPageSize = async ({ query, scope }: CollectionRequest): Promise<number | undefined> => {
  const [orgId, ...others] = scope.orgIds;
  if (namesPageSize(query) || !orgId || others.length > 0) return undefined;
  const [stored] = await readAheadOr<StoredResource>(scope, [settingsKey(orgId)]);
  return settingsOf(stored ?? null).default_page_size;
};

/** The query without the parameters a handler reads by rules of its own (the links keep them all). */
export const without = (query: QueryParameters, handled: readonly string[]): QueryParameters =>
  Object.fromEntries(Object.entries(query).filter(([name]) => !handled.includes(name)));

export const listResources = async (
  request: CollectionRequest,
  definition: ResourceDefinition,
  read: PageReader = (query) => readCollectionPage(request.scope, definition, query),
  /**
   * The query the engine reads, where the handler read parameters of its own (users' `compliant_with`) or
   * put them in the engine's terms (a day's register); the links keep the request's own.
   */
  query: QueryParameters = request.query,
): Promise<CollectionDocument> => {
  const { scope, baseUrl } = request;
  const options = definition.collection;
  if (!options) throw new Error(`${definition.type} declares no collection options`);
  const parsed = parseCollectionQuery(query, options, await defaultPageSize(request));
  const page = await readPage(request, parsed, read);
  const items = definition.derive ? await definition.derive(scope, page.items) : page.items;
  const included = await resolveIncludes(scope, definition, items, page.query.include, page.inHand);
  return pageDocument(request, page, {
    data: items.map((item) => toResourceObject(definition, item, baseUrl)),
    included: included.map(({ definition: d, item }) => toResourceObject(d, item, baseUrl)),
    features: featuresMeta(options),
  });
};

/**
 * A collection of records already in hand, a set bounded by the caller's grants or by definition (the
 * caller's organisations, the permission catalogue): filters, sort and page apply in memory.
 */
export const listInMemory = (
  request: CollectionRequest,
  definition: ResourceDefinition,
  records: () => Promise<readonly StoredResource[]> | readonly StoredResource[],
): Promise<CollectionDocument> =>
  listResources(request, definition, async (query) => applyInMemory(await records(), query));

/**
 * A collection of records kept for whole days (device backups, exports): its page read from the live key
 * range of its partition, its total from the counts by day of creation (data/retention.ts).
 */
export const listKept = (
  request: CollectionRequest,
  definition: ResourceDefinition,
  kept: Kept,
  /** Records read before the page (a subscription, whose deliveries these are), as answered, for its includes. */
  inHand: StoredResource[] = [],
): Promise<CollectionDocument> =>
  listResources(request, definition, async (query) => ({
    ...(await queryKept(request.scope, kept, query)),
    inHand,
  }));

/**
 * A collection whose members a handler builds whole as resource objects (a rate code's versions, an
 * account's keys): the same query features and meta as every collection, applied in memory, with the
 * field paths of the resource object (`attributes.valid_from`). Such collections declare no includes.
 */
export const listResourceObjects = async (
  request: CollectionRequest,
  options: CollectionOptions & { includes: readonly [] },
  all: readonly ResourceObject[],
  /** The query the engine reads (see `listResources`). */
  query: QueryParameters = request.query,
): Promise<CollectionDocument> => {
  const page = await readPage(request, parseCollectionQuery(query, options), (read) =>
    applyInMemory(all, read),
  );
  return pageDocument(request, page, { data: page.items, included: [], features: featuresMeta(options) });
};
