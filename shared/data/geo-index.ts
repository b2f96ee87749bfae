/**
 * The geohash index on `gsi1`: a record with a point is filed under `GEO#<type>#<org>#<2-char cell>`
 * with sort key `<9-char geohash>#<id>`. A box query reads, per organisation, only the covering cells
 * (`begins_with` on the sort key), then checks the exact box: it never reads the whole collection.
 */
import { boxesOf, coveringCells, encodeGeohash, PARTITION_PRECISION } from '../domain/geo/geohash';
import type { CollectionQuery, FilterClause } from './collection-query';
import { applyInMemory } from './in-memory-collection';
import { queryItems } from './repository';
import type { Scope } from './scope';
import { inScope } from './scope';
import type { StoredResource } from './stored-resource';

const partition = (type: string, orgId: string, cell: string) =>
  `GEO#${type}#${orgId}#${cell.slice(0, PARTITION_PRECISION)}`;

export const geoIndexKeys = (
  type: string,
  orgId: string,
  id: string,
  latitude: number,
  longitude: number,
) => {
  const hash = encodeGeohash(latitude, longitude, 9);
  return { gsi1pk: partition(type, orgId, hash), gsi1sk: `${hash}#${id}` };
};

export class BoxTooLarge extends Error {}

/** One page of a geo-indexed collection filtered by a box: covering cells only, then every filter in memory. */
export const queryByBox = async (
  scope: Scope,
  type: string,
  query: CollectionQuery,
  box: Extract<FilterClause, { op: 'box' }>,
): Promise<{ items: StoredResource[]; total: number }> => {
  const cells = coveringCells(boxesOf(box.bottomLeft, box.topRight));
  if (!cells) throw new BoxTooLarge('The bounding box covers too much of the globe; narrow it.');
  const reads = scope.orgIds.flatMap((org) =>
    cells.map((cell) =>
      queryItems({
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :c)',
        ExpressionAttributeValues: { ':p': partition(type, org, cell), ':c': cell },
      }),
    ),
  );
  const found = new Map((await Promise.all(reads)).flat().map((item) => [item.id, item]));
  return applyInMemory(
    [...found.values()].filter((item) => inScope(scope, item.org_id)),
    query,
  );
};
