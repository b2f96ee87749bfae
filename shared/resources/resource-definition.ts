/**
 * One definition per resource type: its type name, relationships, links and collection options. The
 * serialiser, the include resolver and `meta.features` all read from here; endpoints only name one.
 */

import type { Scope } from '../data/scope';
import type { ItemKey, StoredResource } from '../data/stored-resource';
import { resourceKey } from '../data/stored-resource';
import type { CollectionOptions } from '../jsonapi/collection-query';

export interface RelationshipDefinition {
  type: string;
  many?: true;
}

export interface ResourceDefinition {
  type: string;
  relationships: Record<string, RelationshipDefinition>;
  /** Path of the resource's own URL, for `links.self`. */
  selfPath: (resource: StoredResource) => string;
  /** Where a record of this type is stored, given the organisation it is read in. */
  keyOf: (orgId: string, id: string) => ItemKey;
  collection?: CollectionOptions;
  /** A point field (`{latitude, longitude}`) indexed by geohash on `gsi1`, so box filters read only nearby records. */
  geoIndex?: { path: string };
  /** Adds meta derived from other records (a scheme's counts) to records about to be answered with. */
  derive?: (scope: Scope, items: StoredResource[]) => Promise<StoredResource[]>;
}

export const defineResource = (
  definition: Omit<ResourceDefinition, 'keyOf'> & Partial<Pick<ResourceDefinition, 'keyOf'>>,
): ResourceDefinition => ({
  keyOf: (orgId, id) => resourceKey(orgId, definition.type, id),
  ...definition,
});

export const createdAtSort = { created_at: { path: 'meta.created_at' } } as const;
