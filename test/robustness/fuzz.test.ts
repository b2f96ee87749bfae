/**
 * Property-based requests against every route in the route table (fast-check, seeded and bounded): bad
 * path ids, bad query parameters, random and malformed bodies, wrong media types. Every answer must be a
 * 4xx JSON:API error document that validates against the schema (the test client checks every JSON:API
 * body it sees), never a 2xx, 3xx or 5xx and never a stack trace; and the table must be unchanged.
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDynamoDbClient } from '../../infra/local/clients';
import { type Route, routes } from '../../shared/routes';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

const SEED = 20261122;
const CASES_PER_ROUTE = 5;

let api: TestApi;
let tenant: Tenant;
let admin: string;
let tried = 0;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Fuzz Org', 1);
  admin = await api.token(tenant.admin);
});
afterAll(() => {
  console.info(`fuzz: ${tried} requests over ${routes.length} routes (seed ${SEED})`);
  return api.close();
});

const itemCount = async () =>
  (
    await localDynamoDbClient(process.env.DYNAMODB_ENDPOINT ?? '').send(
      new ScanCommand({ TableName: process.env.TABLE_NAME, Select: 'COUNT' }),
    )
  ).Count ?? 0;

const badQueries = [
  'page[limit]=-1',
  'page[limit]=1000000',
  'limit=abc',
  'offset=-5',
  'include=a.b.c.d.e',
  'sort=,,',
  'sort=-',
  'filter[x.box.top_right]=999,999',
  'filter[location.box.bottom_left]=91,181',
  'filter[created_at.since]=yesterday',
  'fields[x]=y',
  '%zz=1',
];

const badIds = [
  'not-a-uuid',
  '1',
  "'; DROP TABLE x;--",
  '%00',
  '0190d5a0-0000-7000-8000-00000000000Z',
  'a'.repeat(300),
];

interface Case {
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string;
}

const deep = (depth: number): unknown => (depth === 0 ? 'x' : { data: deep(depth - 1) });

const bodies = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.constant(JSON.stringify({ data: { type: 'nonsense', attributes: { x: 1 }, bogus: true } })),
  fc.constant(JSON.stringify({ data: { type: 'teams', attributes: { name: 'x'.repeat(100_000) } } })),
  fc.constant(JSON.stringify(deep(200))),
  fc.constant('{"data": '),
  fc.constant(JSON.stringify({ data: [], meta: { proposed_at: 'now' } })),
  fc.string({ maxLength: 200 }),
);

const fill = (route: Route, badParam: string | null, badValue: string) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === badParam
      ? encodeURIComponent(badValue)
      : name === 'org_id'
        ? tenant.org.id
        : '0190d5a0-0000-7000-8000-00000000beef',
  );

/** A request the route must refuse: at least one thing about it is wrong. */
const badRequest = (route: Route): fc.Arbitrary<Case> => {
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
  const body = route.method === 'GET' || route.method === 'DELETE' ? fc.constant(undefined) : bodies;
  const contentType =
    route.bodyType === 'form'
      ? 'application/x-www-form-urlencoded'
      : route.bodyType === 'text'
        ? 'text/plain'
        : 'application/vnd.api+json';
  const variants: fc.Arbitrary<Case>[] = [
    // A bad query parameter (and, for body routes, a bad body too).
    fc.record({
      path: fc.constant(fill(route, null, '')),
      query: fc.constantFrom(...badQueries),
      headers: fc.constant({ 'content-type': contentType }),
      body,
    }),
  ];
  if (params.length > 0) {
    variants.push(
      fc.record({
        path: fc
          .tuple(fc.constantFrom(...params), fc.constantFrom(...badIds))
          .map(([p, v]) => fill(route, p, v)),
        query: fc.constant(''),
        headers: fc.constant({ 'content-type': contentType }),
        body,
      }),
    );
  }
  if (route.method !== 'GET' && route.method !== 'DELETE') {
    variants.push(
      fc.record({
        path: fc.constant(fill(route, null, '')),
        query: fc.constant(''),
        headers: fc.constantFrom<Record<string, string>>(
          { 'content-type': 'application/xml' },
          { 'content-type': 'application/vnd.api+json; ext=x' },
          {},
        ),
        body: fc.constant('{"data": {}}'),
      }),
      fc.record({
        path: fc.constant(fill(route, null, '')),
        query: fc.constant(''),
        headers: fc.constant({ 'content-type': contentType }),
        body: bodies,
      }),
    );
  }
  return fc.oneof(...variants);
};

describe('every route refuses bad requests with a 4xx JSON:API error and writes nothing', () => {
  it.each(routes.map((r) => [r.id, r] as const))('%s', async (_id, route: Route) => {
    const before = await itemCount();
    const cases = fc.sample(badRequest(route), { seed: SEED + route.id.length, numRuns: CASES_PER_ROUTE });
    for (const c of cases) {
      tried += 1;
      const res = await api.request(route.method, `${c.path}${c.query ? `?${c.query}` : ''}`, {
        token: admin,
        headers: c.headers,
        ...(c.body !== undefined && { body: c.body }),
      });
      const label = `${route.method} ${c.path}?${c.query} ${c.headers['content-type'] ?? ''} ${String(c.body).slice(0, 80)}`;
      expect(res.status, `${label} → ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${label} → ${res.text.slice(0, 300)}`).toBeLessThan(500);
      // The token endpoint answers in OAuth 2.0's own error format (RFC 6749 §5.2); everything else in JSON:API's.
      if (route.bodyType === 'form') expect(typeof res.body.error, label).toBe('string');
      else expect(res.body.errors?.length, label).toBeGreaterThan(0);
      expect(res.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
    }
    expect(await itemCount()).toBe(before);
  });
});
