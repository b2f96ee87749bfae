/**
 * A bounding-box query over an organisation's properties through the geohash index: items DynamoDB
 * examined, against the organisation's size and the number of matches, counted in the same run.
 */

import { bulkPut } from '../../shared/data/bulk';
import { dynamodb } from '../../shared/data/clients';
import { queryByBox } from '../../shared/data/geo-index';
import { uuidv7 } from '../../shared/data/ids';
import { scopeOf } from '../../shared/data/scope';
import { parseCollectionQuery } from '../../shared/jsonapi/collection-query';
import { properties } from '../../shared/resources/places/definitions';
import { newRecord } from '../../shared/resources/record-writes';

let scanned = 0;
let calls = 0;
dynamodb.middlewareStack.add(
  (next) => async (args) => {
    const result = await next(args);
    calls++;
    scanned += (result.output as { ScannedCount?: number } | undefined)?.ScannedCount ?? 0;
    return result;
  },
  { step: 'initialize', name: 'benchCounter' },
);

export const benchGeoBox = async (count: number) => {
  const org = uuidv7();
  const side = Math.ceil(Math.sqrt(count));
  const items = Array.from({ length: count }, (_, i) =>
    newRecord(properties, org, {
      attributes: {
        name: `P${i}`,
        location: {
          latitude: 50 + (Math.floor(i / side) * 9) / side,
          longitude: -6 + ((i % side) * 8) / side,
        },
      },
    }),
  );
  await bulkPut(items as unknown as Record<string, unknown>[]);
  const options = properties.collection;
  if (!options) throw new Error('properties declare no collection');
  const query = parseCollectionQuery(
    {
      'filter[location.box.bottom_left]': '54.2,-3.0',
      'filter[location.box.top_right]': '54.5,-2.6',
      limit: '100',
    },
    options,
  );
  const box = query.filters.find((f): f is Extract<typeof f, { op: 'box' }> => f.op === 'box');
  if (!box) throw new Error('no box');
  scanned = 0;
  calls = 0;
  const { total } = await queryByBox(scopeOf([org]), properties.type, query, box);
  return {
    properties_in_organisation: count,
    matches: total,
    items_examined: scanned,
    examined_to_matches: Number((scanned / Math.max(1, total)).toFixed(2)),
    examined_share_of_organisation: `${((100 * scanned) / count).toFixed(2)}%`,
    query_calls: calls,
  };
};
