/** JSON:API 1.1 document shapes and the builders every endpoint answers with. */
import type { ErrorObject } from './errors';

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
  /** A resource, a collection, or (relationship endpoints) a resource identifier. */
  data: ResourceObject | ResourceObject[] | ResourceIdentifier | null;
  included?: ResourceObject[];
  meta?: Record<string, unknown>;
  links?: Record<string, string | null>;
}

/** A document whose primary data is one resource object. */
export interface ResourceDocument extends DataDocument {
  data: ResourceObject;
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

export const resourceDocument = (
  data: ResourceObject,
  included: ResourceObject[] = [],
): ResourceDocument => ({
  jsonapi,
  data,
  ...(included.length > 0 && { included }),
});

export const collectionDocument = (
  data: ResourceObject[],
  included: ResourceObject[],
  meta: Record<string, unknown>,
): DataDocument => ({ jsonapi, data, ...(included.length > 0 && { included }), meta });

export const metaDocument = (meta: Record<string, unknown>): MetaDocument => ({ jsonapi, meta });

export const errorDocument = (errors: ErrorObject[]): ErrorDocument => ({ jsonapi, errors });
