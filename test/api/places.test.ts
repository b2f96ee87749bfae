import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamodb } from '../../shared/data/clients';
import { scopeOf } from '../../shared/data/scope';
import { propertyCrud } from '../../shared/resources/places/locations';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
const points: { name: string; latitude: number; longitude: number }[] = [];

/** Items DynamoDB examined for Query calls made while `fn` runs (the handlers run in this process). */
let scanned = 0;
dynamodb.middlewareStack.add(
  (next) => async (args) => {
    const result = await next(args);
    scanned += (result.output as { ScannedCount?: number } | undefined)?.ScannedCount ?? 0;
    return result;
  },
  { step: 'initialize', name: 'countScannedItems' },
);

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Places Org', 0);
  token = await api.token(tenant.admin);
  // A 20 × 20 grid over Great Britain, plus two properties in the Pacific either side of the antimeridian.
  for (let i = 0; i < 20; i++) {
    for (let j = 0; j < 20; j++)
      points.push({ name: `GB-${i}-${j}`, latitude: 50 + i * 0.5, longitude: -6 + j * 0.4 });
  }
  points.push(
    { name: 'Suva', latitude: -18.14, longitude: 178.44 },
    { name: 'Apia', latitude: -13.83, longitude: -171.77 },
  );
  const scope = scopeOf([tenant.org.id]);
  for (let k = 0; k < points.length; k += 25) {
    await Promise.all(
      points.slice(k, k + 25).map((p) =>
        propertyCrud.create(scope, tenant.org.id, {
          data: {
            type: 'properties',
            attributes: { name: p.name, location: { latitude: p.latitude, longitude: p.longitude } },
          },
        }),
      ),
    );
  }
});
afterAll(() => api.close());

const box = (bl: string, tr: string) =>
  `filter[location.box.bottom_left]=${bl}&filter[location.box.top_right]=${tr}`;
const inside = (bl: [number, number], tr: [number, number]) =>
  points
    .filter((p) => p.latitude >= bl[0] && p.latitude <= tr[0] && p.longitude >= bl[1] && p.longitude <= tr[1])
    .map((p) => p.name)
    .sort();

describe('GET /v3/governance/properties with the bounding-box filter', () => {
  it('returns exactly the properties inside the box, reading only the cells that cover it', async () => {
    scanned = 0;
    const res = await api.get(`/v3/governance/properties?${box('54,-3', '55,-1.5')}&limit=100`, token);
    expect(res.status, res.text).toBe(200);
    const names = res.body.data.map((p: { attributes: { name: string } }) => p.attributes.name).sort();
    expect(names).toEqual(inside([54, -3], [55, -1.5]));
    expect(res.body.meta.pagination.counts.resources).toBe(names.length);
    expect(names.length).toBeGreaterThan(0);
    // The organisation holds 402 properties; the box holds a dozen. The index reads a small multiple of that.
    expect(scanned).toBeGreaterThanOrEqual(names.length);
    expect(scanned).toBeLessThan(points.length / 4);
  });

  it('a box across the antimeridian finds both sides', async () => {
    const res = await api.get(`/v3/governance/properties?${box('-20,175', '-10,-170')}`, token);
    expect(res.body.data.map((p: { attributes: { name: string } }) => p.attributes.name).sort()).toEqual([
      'Apia',
      'Suva',
    ]);
  });

  it('one corner alone, a malformed corner, or a box covering the globe is 400', async () => {
    for (const query of [
      'filter[location.box.bottom_left]=54,-3',
      box('54', '55,-1'),
      box('91,0', '92,1'),
      box('-90,-180', '90,180'),
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
