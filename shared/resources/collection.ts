/**
 * The collection engine's back half, for every collection endpoint: parse the query against the
 * resource's declared options, read one page within the scope, resolve includes, build the document.
 */

import type { CollectionQuery, FilterClause } from '../data/collection-query';
import { queryByBox } from '../data/geo-index';
import { applyInMemory } from '../data/in-memory-collection';
import { queryCollection, readPartition } from '../data/repository';
import type { Scope } from '../data/scope';
import type { StoredResource } from '../data/stored-resource';
import { type CollectionOptions, featuresMeta, parseCollectionQuery } from '../jsonapi/collection-query';
import { type CollectionDocument, collectionDocument, type ResourceObject } from '../jsonapi/document';
import type { RequestTarget } from '../jsonapi/document-links';
import { resolveIncludes } from './includes';
import type { ResourceDefinition } from './resource-definition';
import { toResourceObject } from './serialise';

/** The request a collection answers: its scope, and its URL for the links (`ApiRequest` is one). */
export interface CollectionRequest extends RequestTarget {
  scope: Scope;
}

type PageReader = (query: CollectionQuery) => Promise<{ items: StoredResource[]; total: number }>;

/** A page from the table: through the geohash index when a box filter is on the indexed point. */
const readCollectionPage = async (scope: Scope, definition: ResourceDefinition, query: CollectionQuery) => {
  const box = query.filters.find(
    (f): f is Extract<FilterClause, { op: 'box' }> => f.op === 'box' && f.path === definition.geoIndex?.path,
  );
  return box
    ? queryByBox(scope, definition.type, query, box)
    : queryCollection(scope, definition.type, query);
};

export const listResources = async (
  request: CollectionRequest,
  definition: ResourceDefinition,
  readPage: PageReader = (query) => readCollectionPage(request.scope, definition, query),
): Promise<CollectionDocument> => {
  const { scope, baseUrl } = request;
  const options = definition.collection;
  if (!options) throw new Error(`${definition.type} declares no collection options`);
  const query = parseCollectionQuery(request.query, options);
  const page = await readPage(query);
  const items = definition.derive ? await definition.derive(scope, page.items) : page.items;
  const included = await resolveIncludes(scope, definition, items, query.include);
  return collectionDocument(request, {
    data: items.map((item) => toResourceObject(definition, item, baseUrl)),
    included: included.map(({ definition: d, item }) => toResourceObject(d, item, baseUrl)),
    page: query.page,
    total: page.total,
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
 * One organisation's small, bounded collection read whole (records that expire after 30 days: device
 * backups, exports), keeping the live records `keep` accepts; filters, sort and page apply in memory.
 */
export const listPartition = (
  request: CollectionRequest,
  definition: ResourceDefinition,
  orgId: string,
  keep: (record: StoredResource) => boolean = () => true,
): Promise<CollectionDocument> =>
  listInMemory(request, definition, async () =>
    (await readPartition(request.scope, orgId, definition.type)).filter(keep),
  );

/**
 * A collection whose members a handler builds whole as resource objects (a rate code's versions, an
 * account's keys): the same query features and meta as every collection, applied in memory, with the
 * field paths of the resource object (`attributes.valid_from`). Such collections declare no includes.
 */
export const listResourceObjects = (
  request: RequestTarget,
  options: CollectionOptions & { includes: readonly [] },
  all: readonly ResourceObject[],
): CollectionDocument => {
  const query = parseCollectionQuery(request.query, options);
  const { items, total } = applyInMemory(all, query);
  return collectionDocument(request, {
    data: items,
    included: [],
    page: query.page,
    total,
    features: featuresMeta(options),
  });
};
