/** JSON:API 1.1 document shapes and the builders every endpoint answers with. */
import type { Page } from '../data/collection-query';
import type { FeaturesMeta } from './collection-query';
import {
  CURSOR,
  type CursorPageLinks,
  cursorLinks,
  cursorPageLinks,
  type PaginationLinks,
  paginationLinks,
  type RequestTarget,
  resourceSelf,
} from './document-links';
import type { ErrorObject } from './errors';
import {
  type CursorPaginationMeta,
  cursorPaginationMeta,
  type PaginationMeta,
  paginationMeta,
} from './pagination';

export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';
export const jsonapi = { version: '1.1' } as const;

export interface ResourceIdentifier {
  type: string;
  id: string;
  meta?: Record<string, unknown>;
}

export interface Relationship {
  data: ResourceIdentifier | ResourceIdentifier[] | null;
}

export interface ResourceObject {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  meta: Record<string, unknown>;
  relationships: Record<string, Relationship>;
  /** Absent only for entries that have no URL of their own. */
  links?: { self: string };
}

export interface DataDocument {
  jsonapi: typeof jsonapi;
  /** A resource, a collection, or (relationship endpoints) a resource identifier or a list of them. */
  data: ResourceObject | ResourceObject[] | ResourceIdentifier | ResourceIdentifier[] | null;
  included?: ResourceObject[];
  meta?: Record<string, unknown>;
  links?: Record<string, string | null>;
}

/** A document whose primary data is one resource object. */
export interface ResourceDocument extends DataDocument {
  data: ResourceObject;
  links: { self: string };
  /** The `ETag` of the record answered (`http/preconditions.ts`); a symbol, so never serialised. */
  [ENTITY_TAG]?: string;
}

/** Where a single-record document carries its entity tag to the reply, out of its JSON. */
export const ENTITY_TAG: unique symbol = Symbol('entity-tag');

/** One page of a collection: its top-level links page through the rest. */
export interface CollectionDocument extends DataDocument {
  data: ResourceObject[];
  meta: { pagination: PaginationMeta | CursorPaginationMeta; features: FeaturesMeta };
  links: PaginationLinks | CursorPageLinks;
}

export interface MetaDocument {
  jsonapi: typeof jsonapi;
  meta: Record<string, unknown>;
}

export interface ErrorDocument {
  jsonapi: typeof jsonapi;
  errors: ErrorObject[];
}

export type Document = DataDocument | MetaDocument | ErrorDocument;

/** The answer for one resource, with its top-level `links.self` (see `resourceSelf`). */
export const resourceDocument = (
  request: RequestTarget,
  data: ResourceObject,
  included: ResourceObject[] = [],
): ResourceDocument => ({
  jsonapi,
  links: { self: resourceSelf(request, data) },
  data,
  ...(included.length > 0 && { included }),
});

export interface CollectionPage {
  data: ResourceObject[];
  included: ResourceObject[];
  /**
   * The page requested and the number of records in the whole (filtered) collection; unknown only for
   * a filtered page read by cursor.
   */
  page: Page;
  total?: number;
  /** Read by cursor (`page.after` set): the sealed cursor of the next page, none after the last. */
  next?: string;
  /** `meta.features`: the options the endpoint accepts. */
  features: FeaturesMeta;
}

/**
 * The answer for one page of a collection: `meta.pagination` and the top-level links `self`, `first`,
 * `prev`, `next` and `last`, both from the page and the request (see `document-links.ts`).
 */
export const collectionDocument = (
  request: RequestTarget,
  { data, included, page, total, next, features }: CollectionPage,
): CollectionDocument => {
  const byOffset = page.after === undefined;
  return {
    jsonapi,
    links: byOffset ? paginationLinks(request, page, total ?? 0) : cursorPageLinks(request, next),
    data,
    ...(included.length > 0 && { included }),
    meta: {
      pagination: byOffset
        ? paginationMeta(page, total ?? 0)
        : cursorPaginationMeta(page.limit, request.query[CURSOR] ?? '', total),
      features,
    },
  };
};

/** A page of a feed read with a cursor: `links.next` resumes after the last item read (see `cursorLinks`). */
export const feedDocument = (
  request: RequestTarget,
  data: ResourceObject[],
  cursor: string | undefined,
): DataDocument => ({ jsonapi, links: cursorLinks(request, cursor), data });

export const metaDocument = (meta: Record<string, unknown>): MetaDocument => ({ jsonapi, meta });

export const errorDocument = (errors: ErrorObject[]): ErrorDocument => ({ jsonapi, errors });
