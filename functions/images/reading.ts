/**
 * Reading images as a caller may: an image whose subject the caller may not see is not found (404, as one of
 * another organisation), and its coordinates come back into an answer only where the caller may see them
 * (every serialisation hides restricted ones: `rules/visibility.ts`). Apart from the writes, so that a read's
 * first request loads no zod.
 */
import { config } from '#shared/config';
import type { FilterClause } from '#shared/data/collection-query';
import type { StoredResource } from '#shared/data/stored-resource';
import { type CollectionRequest, listResources, readCollectionPage } from '#shared/engine/collection';
import { declaredType } from '#shared/engine/resource-definition';
import { notFound, readInScope, resourceResponse } from '#shared/engine/single';
import type { ApiRequest } from '#shared/http/json-api-handler';
import type { CollectionDocument, ResourceDocument } from '#shared/jsonapi/document';
import { images } from './definitions';
import type { StoredLocation } from './rules/location';
import { comparePair } from './rules/pairs';
import { locationFor, maySeeSubject, mayViewOriginal } from './rules/visibility';

type Caller = Pick<ApiRequest, 'scope' | 'principal'>;

const familyOf = (type: string) => declaredType(type)?.permission;

/** The image, or 404 when it is not in the caller's organisations or its subject is hidden from the caller. */
export const readVisibleImage = async (request: Caller, id: string): Promise<StoredResource> => {
  const image = await readInScope(request.scope, images, id);
  if (!maySeeSubject(request.principal, image, familyOf)) throw notFound(images, id);
  return image;
};

/** The before/after comparison for an image naming its pair, as this caller may see the two places. */
const pairMeta = async (request: Caller, image: StoredResource) => {
  const pairId = image.rels.pair_of;
  if (typeof pairId !== 'string') return undefined;
  const other = await readInScope(request.scope, images, pairId).catch(() => null);
  if (!other || !maySeeSubject(request.principal, other, familyOf)) return { image: pairId, visible: false };
  const here = locationFor(request.principal, image) as StoredLocation | null;
  const there = locationFor(request.principal, other) as StoredLocation | null;
  return {
    image: pairId,
    visible: true,
    places: { this: here, pair: there },
    ...comparePair(here, there, {
      metres: config.IMAGE_PAIR_MAX_METRES,
      degrees: config.IMAGE_PAIR_MAX_DEGREES,
    }),
    limits: { metres: config.IMAGE_PAIR_MAX_METRES, degrees: config.IMAGE_PAIR_MAX_DEGREES },
  };
};

/** One image's document: its coordinates where the caller may see them, and its pair's comparison. */
export const imageResponse = async (
  request: Caller & Parameters<typeof resourceResponse>[0],
  image: StoredResource,
): Promise<ResourceDocument> => {
  const document = await resourceResponse(request, images, image);
  const pair = await pairMeta(request, image);
  document.data.attributes = { ...document.data.attributes, location: locationFor(request.principal, image) };
  if (pair) document.data.meta = { ...document.data.meta, pair };
  return document;
};

/**
 * A page of the organisation's images: those whose subject the caller may not see are left out of the page
 * (a page may then hold fewer than its size), and a bounding box finds only images whose coordinates the
 * caller may see (location_visibility organisation, unless the caller holds images:view-original).
 */
export const listVisibleImages = async (request: CollectionRequest & Caller): Promise<CollectionDocument> => {
  const orgId = request.scope.orgIds[0] ?? '';
  const seesAll = mayViewOriginal(request.principal, orgId);
  const stored = new Map<string, StoredResource>();
  const document = await listResources(request, images, async (query) => {
    const boxed = query.filters.some((f) => f.op === 'box');
    const visibleOnly: FilterClause = {
      field: 'location_visibility',
      path: 'attributes.location_visibility',
      op: 'eq',
      value: 'organisation',
    };
    const read = await readCollectionPage(
      request.scope,
      images,
      boxed && !seesAll ? { ...query, filters: [...query.filters, visibleOnly] } : query,
    );
    const items = read.items.filter((image) => maySeeSubject(request.principal, image, familyOf));
    for (const image of items) stored.set(image.id, image);
    return { ...read, items };
  });
  for (const resource of document.data) {
    const image = stored.get(resource.id);
    if (image)
      resource.attributes = { ...resource.attributes, location: locationFor(request.principal, image) };
  }
  return document;
};
