/**
 * One definition per resource type: its type name, relationships, links and collection options. The
 * serialiser, the include resolver and `meta.features` all read from here; endpoints only name one.
 */

import type { Scope } from '../data/scope';
import type { ItemKey, StoredResource } from '../data/stored-resource';
import { resourceKey } from '../data/stored-resource';
import type { CollectionOptions } from '../jsonapi/collection-query';
import { type GetRouteId, recordPath } from '../jsonapi/links';

export interface RelationshipDefinition {
  type: string;
  many?: true;
}

export interface ResourceDefinition {
  type: string;
  relationships: Record<string, RelationshipDefinition>;
  /**
   * Path of the resource's own URL, for `links.self` and `Location`; null for records never answered
   * with (their objects then carry no `links`, which JSON:API allows).
   */
  selfPath: ((resource: StoredResource) => string) | null;
  /** Where a record of this type is stored, given the organisation it is read in. */
  keyOf: (orgId: string, id: string) => ItemKey;
  collection?: CollectionOptions;
  /** A point field (`{latitude, longitude}`) indexed by geohash on `gsi1`, so box filters read only nearby records. */
  geoIndex?: { path: string };
  /** Adds meta derived from other records (a scheme's counts) to records about to be answered with. */
  derive?: (scope: Scope, items: StoredResource[]) => Promise<StoredResource[]>;
}

/** A type as its area declares it: `self` names the GET route that serves one record of the type. */
export type ResourceDeclaration = Omit<ResourceDefinition, 'keyOf' | 'selfPath'> &
  Partial<Pick<ResourceDefinition, 'keyOf'>> & {
    /**
     * The route whose path is each record's `links.self` (see `recordPath`); a function only for
     * entries with no page of their own, which must still build their path with `routePath`.
     */
    self: GetRouteId | Exclude<ResourceDefinition['selfPath'], null> | null;
  };

export const defineResource = ({ self, ...definition }: ResourceDeclaration): ResourceDefinition => ({
  keyOf: (orgId, id) => resourceKey(orgId, definition.type, id),
  ...definition,
  selfPath: typeof self === 'string' ? recordPath(self) : self,
});

export const createdAtSort = { created_at: { path: 'meta.created_at' } } as const;
