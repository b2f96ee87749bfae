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
import {
  type CollectionOptions,
  featuresMeta,
  paginationMeta,
  parseCollectionQuery,
  type QueryParameters,
} from '../jsonapi/collection-query';
import { collectionDocument, type DataDocument, type ResourceObject } from '../jsonapi/document';
import { resolveIncludes } from './includes';
import type { ResourceDefinition } from './resource-definition';
import { toResourceObject } from './serialise';

export interface CollectionRequest {
  scope: Scope;
  query: QueryParameters;
  baseUrl: string;
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
  { scope, query: parameters, baseUrl }: CollectionRequest,
  definition: ResourceDefinition,
  readPage: PageReader = (query) => readCollectionPage(scope, definition, query),
): Promise<DataDocument> => {
  const options = definition.collection;
  if (!options) throw new Error(`${definition.type} declares no collection options`);
  const query = parseCollectionQuery(parameters, options);
  const page = await readPage(query);
  const items = definition.derive ? await definition.derive(scope, page.items) : page.items;
  const { total } = page;
  const included = await resolveIncludes(scope, definition, items, query.include);
  return collectionDocument(
    items.map((item) => toResourceObject(definition, item, baseUrl)),
    included.map(({ definition: d, item }) => toResourceObject(d, item, baseUrl)),
    { pagination: paginationMeta(query.page, total), features: featuresMeta(options) },
  );
};

/**
 * A collection of records already in hand, a set bounded by the caller's grants or by definition (the
 * caller's organisations, the permission catalogue): filters, sort and page apply in memory.
 */
export const listInMemory = (
  request: CollectionRequest,
  definition: ResourceDefinition,
  records: () => Promise<readonly StoredResource[]> | readonly StoredResource[],
): Promise<DataDocument> =>
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
): Promise<DataDocument> =>
  listInMemory(request, definition, async () =>
    (await readPartition(request.scope, orgId, definition.type)).filter(keep),
  );

/**
 * A collection whose members a handler builds whole as resource objects (a rate code's versions, an
 * account's keys): the same query features and meta as every collection, applied in memory, with the
 * field paths of the resource object (`attributes.valid_from`). Such collections declare no includes.
 */
export const listResourceObjects = (
  parameters: QueryParameters,
  options: CollectionOptions & { includes: readonly [] },
  all: readonly ResourceObject[],
): DataDocument => {
  const query = parseCollectionQuery(parameters, options);
  const { items, total } = applyInMemory(all, query);
  return collectionDocument(items, [], {
    pagination: paginationMeta(query.page, total),
    features: featuresMeta(options),
  });
};
