/**
 * The geohash index on `gsi1`: a record with a point is filed under `GEO#<type>#<org>` (one partition
 * per organisation and type, as its collection is on the table) with sort key `<9-char geohash>#<id>`.
 * A box of any size is read as at most `MAX_COVER_RANGES` key ranges per organisation (the cells that
 * cover it, see `coverBoxes`), then checked exactly: never the whole collection, unless the box covers
 * most of the globe, when the whole index is what it asks for.
 */

import { boxesOf, coverBoxes, encodeGeohash, INDEX_PRECISION } from '../domain/geohash';
import { indexKeysFrom, partitionFrom } from './access-patterns';
import type { CollectionQuery, FilterClause, PageRead } from './collection-query';
import { applyInMemory } from './in-memory-collection';
import { queryItems } from './repository';
import type { Scope } from './scope';
import { inScope } from './scope';
import type { StoredResource } from './stored-resource';

/** A geo-indexed type's entry on `gsi1` (its declaration's implied `geo` pattern). */
export const geoPattern = <Type extends string>(type: Type) =>
  ({
    index: 'gsi1',
    pk: `GEO#${type}#{org_id}`,
    sk: '{geohash}#{id}',
    about:
      'one partition per organisation and type, as its collection on the table; a geohash cell (9 characters) is a key prefix and cells next to each other in Z order are one key range',
  }) as const;

const partition = (type: string, orgId: string) => partitionFrom(geoPattern(type), { org_id: orgId });

export const geoIndexKeys = (
  type: string,
  orgId: string,
  id: string,
  latitude: number,
  longitude: number,
) => ({
  ...indexKeysFrom(geoPattern(type), {
    org_id: orgId,
    geohash: encodeGeohash(latitude, longitude, INDEX_PRECISION),
    id,
  }),
});

/** One page of a geo-indexed collection filtered by a box: covering ranges only, then every filter in memory. */
export const queryByBox = async (
  scope: Scope,
  type: string,
  query: CollectionQuery,
  box: Extract<FilterClause, { op: 'box' }>,
): Promise<PageRead<StoredResource>> => {
  const { ranges } = coverBoxes(boxesOf(box.bottomLeft, box.topRight));
  const reads = scope.orgIds.flatMap((org) =>
    ranges.map(({ from, to }) =>
      queryItems(
        from === ''
          ? {
              IndexName: 'gsi1',
              KeyConditionExpression: 'gsi1pk = :p',
              ExpressionAttributeValues: { ':p': partition(type, org) },
            }
          : {
              IndexName: 'gsi1',
              KeyConditionExpression: 'gsi1pk = :p AND gsi1sk BETWEEN :from AND :to',
              ExpressionAttributeValues: { ':p': partition(type, org), ':from': from, ':to': to },
            },
      ),
    ),
  );
  const found = new Map((await Promise.all(reads)).flat().map((item) => [item.id, item]));
  return applyInMemory(
    [...found.values()].filter((item) => inScope(scope, item.org_id)),
    query,
  );
};
