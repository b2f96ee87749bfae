import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { properties } from '#functions/places/definitions';
import { bulkPut } from '#shared/data/bulk';
import { dynamodb } from '#shared/data/clients';
import { compareCollated } from '#shared/data/collation';
import { scopeOf } from '#shared/data/scope';
import { counterKey } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { MAX_COVER_RANGES } from '#shared/domain/geohash';
import { newRecord } from '#shared/engine/record-writes';
import { declaredCrud } from '#shared/engine/simple-crud';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
const points: { name: string; latitude: number; longitude: number }[] = [];

/** The documented bound (docs/api.md, Bounding-box cost): a box within 4:1 reads cells of at most 2.5× its surface (evenly spread records: 2.5× the matches). */
const EXAMINED_PER_MATCH = 2.5;

/** Items the geohash index examined, and its Queries, while the handlers run (they run in this process). */
let scanned = 0;
let queries = 0;
dynamodb.middlewareStack.add(
  (next, context) => async (args) => {
    const result = await next(args);
    const input = args.input as {
      ExpressionAttributeValues?: Record<string, unknown>;
      ExclusiveStartKey?: unknown;
    };
    if (
      context.commandName === 'QueryCommand' &&
      String(input.ExpressionAttributeValues?.[':p']).startsWith('GEO#')
    ) {
      scanned += (result.output as { ScannedCount?: number } | undefined)?.ScannedCount ?? 0;
      // One Query per key range; a range over 1 MB continues in further pages, not counted here.
      if (!input.ExclusiveStartKey) queries++;
    }
    return result;
  },
  { step: 'initialize', name: 'countGeoIndexReads' },
);

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Places Org', 0);
  token = await api.token(tenant.admin);
  // A 20 × 20 grid over Great Britain; a 2° grid over Europe, North Africa and the Middle East
  // (beyond the continent-size box on every side, so the cells around its edges hold records too);
  // two properties in the Pacific either side of the antimeridian.
  for (let i = 0; i < 20; i++) {
    for (let j = 0; j < 20; j++)
      points.push({ name: `GB-${i}-${j}`, latitude: 50 + i * 0.5, longitude: -6 + j * 0.4 });
  }
  for (let lat = 25.5; lat < 76; lat += 2) {
    for (let lng = -37.5; lng < 62; lng += 2)
      points.push({ name: `EU-${lat}-${lng}`, latitude: lat, longitude: lng });
  }
  points.push(
    { name: 'Suva', latitude: -18.14, longitude: 178.44 },
    { name: 'Apia', latitude: -13.83, longitude: -171.77 },
  );
  // Written as a location import writes its rows (BatchWriteItem, then the counter), for speed;
  // each record is built by the same code a create uses, geohash index keys included.
  const records = points.map(
    (p) =>
      newRecord(properties, tenant.org.id, {
        attributes: { name: p.name, location: { latitude: p.latitude, longitude: p.longitude } },
      }) as unknown as Record<string, unknown>,
  );
  await bulkPut(records);
  await commit(scopeOf([tenant.org.id]), [
    { count: { key: counterKey(tenant.org.id, properties.type), by: records.length } },
  ]);
  // And one through the API's create, which must index the same way.
  const created = await (await declaredCrud(properties)).create(scopeOf([tenant.org.id]), tenant.org.id, {
    data: {
      type: 'properties',
      attributes: { name: 'Kendal', location: { latitude: 54.33, longitude: -2.75 } },
    },
  });
  points.push({ name: String(created.attributes.name), latitude: 54.33, longitude: -2.75 });
}, 120_000);
afterAll(() => api.close());

const box = (bl: string, tr: string) =>
  `filter[location.box.bottom_left]=${bl}&filter[location.box.top_right]=${tr}`;
/** The names inside a box, in the collection's default order (name, case-folded). */
const inside = (bl: [number, number], tr: [number, number]) =>
  points
    .filter((p) => p.latitude >= bl[0] && p.latitude <= tr[0] && p.longitude >= bl[1] && p.longitude <= tr[1])
    .map((p) => p.name)
    .sort(compareCollated);

const names = (res: { body: { data: { attributes: { name: string } }[] } }) =>
  res.body.data.map((p) => p.attributes.name);

/**
 * A box's first and last pages (DynamoDB Local reads about a thousand items a second, so not every
 * page), with the items DynamoDB examined and the key ranges it queried for the first.
 */
const inBox = async (bl: [number, number], tr: [number, number]) => {
  const path = `/v3/governance/properties?${box(bl.join(','), tr.join(','))}&limit=100`;
  scanned = 0;
  queries = 0;
  const first = await api.get(path, token);
  expect(first.status, first.text).toBe(200);
  const examined = { items: scanned, queries };
  const total: number = first.body.meta.pagination.counts.resources;
  const lastOffset = Math.max(0, Math.floor((total - 1) / 100) * 100);
  const last = lastOffset === 0 ? first : await api.get(`${path}&offset=${lastOffset}`, token);
  return { first: names(first), last: names(last), lastOffset, total, examined };
};

/** The box answers exactly the records inside it: the count, and the names on its first and last pages. */
const expectExactly = (found: Awaited<ReturnType<typeof inBox>>, expected: string[]) => {
  expect(found.total).toBe(expected.length);
  expect(found.first).toEqual(expected.slice(0, 100));
  expect(found.last).toEqual(expected.slice(found.lastOffset));
};

describe('GET /v3/governance/properties with the bounding-box filter', () => {
  it('returns exactly the properties inside the box, reading only the cells that cover it', async () => {
    const found = await inBox([54, -3], [55, -1.5]);
    const expected = inside([54, -3], [55, -1.5]);
    expectExactly(found, expected);
    expect(expected.length).toBeGreaterThan(0);
    expect(found.examined.items).toBeGreaterThanOrEqual(expected.length);
    expect(found.examined.items).toBeLessThanOrEqual(EXAMINED_PER_MATCH * expected.length);
  });

  it('a country-size box (Great Britain) answers 200 with exactly the records inside, within the bound', async () => {
    const found = await inBox([49.9, -8.2], [58.2, 1.8]);
    const expected = inside([49.9, -8.2], [58.2, 1.8]);
    expectExactly(found, expected);
    expect(expected.length).toBeGreaterThan(300);
    expect(found.examined.items).toBeLessThanOrEqual(EXAMINED_PER_MATCH * expected.length);
    expect(found.examined.queries).toBeLessThanOrEqual(MAX_COVER_RANGES);
  });

  it('a continent-size box (Europe) answers 200 with exactly the records inside, within the bound', async () => {
    const found = await inBox([35, -25], [71, 45]);
    const expected = inside([35, -25], [71, 45]);
    expectExactly(found, expected);
    expect(expected.length).toBeGreaterThan(1_000);
    expect(expected.length).toBeLessThan(points.length);
    expect(found.examined.items).toBeLessThanOrEqual(EXAMINED_PER_MATCH * expected.length);
    expect(found.examined.queries).toBeLessThanOrEqual(MAX_COVER_RANGES);
  });

  it('a box across the antimeridian finds both sides', async () => {
    const res = await api.get(`/v3/governance/properties?${box('-20,175', '-10,-170')}`, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((p: { attributes: { name: string } }) => p.attributes.name).sort()).toEqual([
      'Apia',
      'Suva',
    ]);
  });

  it('a box covering the globe answers every record, read as the whole index in one Query', async () => {
    const found = await inBox([-90, -180], [90, 180]);
    expectExactly(found, inside([-90, -180], [90, 180]));
    expect(found.total).toBe(points.length);
    expect(found.examined).toEqual({ items: points.length, queries: 1 });
  });

  it('one corner alone, a malformed corner, a corner off the globe or a bottom north of the top is 400', async () => {
    for (const query of [
      'filter[location.box.bottom_left]=54,-3',
      box('54', '55,-1'),
      box('91,0', '92,1'),
      box('55,0', '54,1'),
    ]) {
      const res = await api.get(`/v3/governance/properties?${query}`, token);
      expect(res.status, query).toBe(400);
      expect(res.body.errors[0].source.parameter).toMatch(/^filter\[location\.box\./);
    }
  });

  it('without a box the collection pages as usual', async () => {
    const res = await api.get('/v3/governance/properties?limit=5', token);
    expect(res.body.data).toHaveLength(5);
    expect(res.body.meta.pagination.counts.resources).toBe(points.length);
  });
});
