/**
 * Bounding-box queries from a town to the globe over an organisation's properties through the geohash
 * index: items DynamoDB examined and Query calls, against the organisation's size and the number of
 * matches, counted in the same run.
 */

import { properties } from '#functions/places/definitions';
import { bulkPut } from '#shared/data/bulk';
import { dynamodb } from '#shared/data/clients';
import { queryByBox } from '#shared/data/geo-index';
import { uuidv7 } from '#shared/data/ids';
import { scopeOf } from '#shared/data/scope';
import { newRecord } from '#shared/engine/record-writes';
import { parseCollectionQuery } from '#shared/jsonapi/collection-query';

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
  const boxes: Record<string, [string, string]> = {
    town: ['54.2,-3.0', '54.5,-2.6'],
    country: ['49.9,-8.2', '60.9,1.8'],
    continent: ['35,-25', '71,45'],
    globe: ['-90,-180', '90,180'],
  };
  const figures: Record<string, string | number> = { properties_in_organisation: count };
  for (const [name, [bottomLeft, topRight]] of Object.entries(boxes)) {
    const query = parseCollectionQuery(
      {
        'filter[location.box.bottom_left]': bottomLeft,
        'filter[location.box.top_right]': topRight,
        limit: '100',
      },
      options,
    );
    const box = query.filters.find((f): f is Extract<typeof f, { op: 'box' }> => f.op === 'box');
    if (!box) throw new Error('no box');
    scanned = 0;
    calls = 0;
    const { total = 0 } = await queryByBox(scopeOf([org]), properties.type, query, box);
    figures[name] =
      `${total} matches, ${scanned} examined (${(scanned / Math.max(1, total)).toFixed(2)}× the matches, ` +
      `${((100 * scanned) / count).toFixed(1)} % of the organisation), ${calls} Query calls (1 MB pages included)`;
  }
  return figures;
};
