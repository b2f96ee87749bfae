/**
 * Property-based requests against every route in the route table (fast-check, seeded and bounded): bad
 * path ids, bad query parameters, random and malformed bodies, wrong media types; and, for every route,
 * the classes of input that once reached past validation: prototype-chain names in every name-like place,
 * integers at and beyond 2^31 and 2^53, lone surrogates, NUL and other control characters, and strings
 * at and beyond every storage limit a user value can meet. Every answer must be a 4xx JSON:API error
 * document that validates against the schema (the test client checks every JSON:API body it sees and
 * its headers), never a 5xx and never a stack trace; and the table must be unchanged. The only answers
 * besides a 4xx are reads whose oddity is a value the API may accept (a page beyond the end is 200).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Route, resourceTypes, routes } from '#shared/routes';
import { startTestApi, type TestApi } from '../support/api';
import { itemCount } from '../support/item-count';
import { newTenant, type Tenant } from '../support/tenants';

const SEED = 20261122;
/** Requests per route of the general "bad request" arbitrary; each class below adds one per route. */
const CASES_PER_ROUTE = 5;

let api: TestApi;
let tenant: Tenant;
let admin: string;
let tried = 0;
let started = 0;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Fuzz Org', 1);
  admin = await api.token(tenant.admin);
  started = performance.now();
});
afterAll(() => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.info(`fuzz: ${tried} requests over ${routes.length} routes in ${seconds} s (seed ${SEED})`);
  return api.close();
});

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

/** `expect: 'refused'` needs a 4xx; `'answered'` (reads only) also allows a 2xx JSON:API document. */
interface Case {
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string;
  expect?: 'refused' | 'answered';
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

const PLACEHOLDER_ID = '0190d5a0-0000-7000-8000-00000000beef';

/** The route's path with real-looking ids, and `raw` (already URL-safe or deliberately not) for one. */
const fillRaw = (route: Route, badParam: string | null, raw: string) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === badParam ? raw : name === 'org_id' ? tenant.org.id : PLACEHOLDER_ID,
  );

const fill = (route: Route, badParam: string | null, badValue: string) =>
  fillRaw(route, badParam, encodeURIComponent(badValue));

const paramsOf = (route: Route) => [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
const hasBody = (route: Route) => route.method !== 'GET' && route.method !== 'DELETE';
const contentTypeOf = (route: Route) =>
  route.bodyType === 'form'
    ? 'application/x-www-form-urlencoded'
    : route.bodyType === 'text'
      ? 'text/plain'
      : 'application/vnd.api+json';

/** A request the route must refuse: at least one thing about it is wrong. */
const badRequest = (route: Route): fc.Arbitrary<Case> => {
  const params = paramsOf(route);
  const body = hasBody(route) ? bodies : fc.constant(undefined);
  const contentType = contentTypeOf(route);
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
  if (hasBody(route)) {
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

// ---------------------------------------------------------------------------------------------------
// The classes of issue 15: values at the edges of what JavaScript, DynamoDB and S3 can hold.

/** Names a lookup that walks the prototype chain finds on every plain object. */
const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  '__defineGetter__',
  'prototype',
] as const;

const INT32 = 2 ** 31;
const SAFE = Number.MAX_SAFE_INTEGER;
/** Integers (and their neighbours) where int32 and IEEE-754 doubles stop being exact. */
const NUMBERS = [
  INT32 - 1,
  INT32,
  2 ** 32,
  SAFE,
  SAFE + 1,
  SAFE + 3,
  -INT32 - 1,
  -SAFE - 2,
  1e21,
  1e126,
  1e308,
  -1e308,
  5e-324,
  1.5,
] as const;
/** The same as decimal digit strings, for query parameters; beyond any double too. */
const DIGITS = [
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  `1${'0'.repeat(30)}`,
  '9'.repeat(400),
  '-2147483649',
  `${'0'.repeat(20)}2147483648`,
] as const;

const ascii = (bytes: number) => 'k'.repeat(bytes);
/**
 * Strings at and just beyond the limits a user value meets on its way to storage: a DynamoDB sort key
 * (1,024 bytes) and partition key (2,048 bytes), an S3 object key (1,024 bytes) and user metadata (2 KB),
 * in one-, three- and four-byte UTF-8 characters.
 */
const KEY_SIZED = [
  ascii(1024),
  ascii(1025),
  ascii(2048),
  ascii(2049),
  '€'.repeat(342),
  '😀'.repeat(257),
  '€'.repeat(683),
] as const;
/** Beyond a DynamoDB item (400 KB) but inside the API's 1 MiB body limit. */
const ITEM_SIZED = [ascii(400 * 1024 + 1), ascii(900 * 1024)] as const;
/** Not well-formed Unicode, NUL and other control characters. */
const ODD_TEXT = [
  '\uD800',
  'a\uDC00b',
  '\uDBFF\uDBFF',
  '\u0000',
  'a\u0000b',
  '\u0001',
  'line\nbreak',
  '\u001F',
  '\u007F',
  '\u0085',
] as const;
/** The same where only percent-encoded bytes can carry them (URLs): invalid UTF-8 included. */
const ODD_URL_TEXT = ['%00', 'a%00b', '%ED%A0%80', '%C0%80', '%FF', '%01', '%0A', '%1F', '%7F', '%E0%A4%A'];

/** Filter names of the route's collection when the route is a declared resource's list, else of all. */
const allFilterNames = [
  ...new Set([...resourceTypes.values()].flatMap((d) => Object.keys(d.collection?.filters ?? {}))),
  'prefix',
  'subject_id',
  'type',
];
const filterNamesOf = (route: Route): string[] => {
  const last = route.path.split('/').at(-1) ?? '';
  const own = Object.keys(resourceTypes.get(last)?.collection?.filters ?? {});
  return own.length > 0 ? own : allFilterNames;
};
const relationshipNames = [
  ...new Set([...resourceTypes.values()].flatMap((d) => Object.keys(d.relationships))),
];
/** Attribute names whose values become keys, file names or sizes somewhere in the service. */
const attributeNames = [
  'name',
  'serial',
  'code',
  'reference',
  'device',
  'registration',
  'description',
  'title',
  'text',
  'file_name',
  'email',
  'slug',
  'body',
  'summary',
  'reason',
  'subject_type',
  'domain',
];
const numberNames = [
  'amount',
  'quantity',
  'size',
  'count',
  'year',
  'seats',
  'latitude',
  'vibration_magnitude',
];

/** The resource type a body for this route would most likely carry: the path's last word. */
const typeOf = (route: Route) =>
  route.path
    .split('/')
    .filter((s) => s !== '' && !s.startsWith('{'))
    .at(-1) ?? 'x';

/** `{data: {type, id?, attributes?, relationships?}}`, built as text so `__proto__` stays a member. */
const documentText = (
  route: Route,
  members: { attributes?: string; relationships?: string; meta?: string },
) => {
  const id = route.method === 'POST' ? '' : `,"id":${JSON.stringify(PLACEHOLDER_ID)}`;
  const parts = Object.entries(members).map(([k, v]) => `,${JSON.stringify(k)}:${v}`);
  return `{"data":{"type":${JSON.stringify(typeOf(route))}${id}${parts.join('')}}}`;
};
const member = (name: string, value: unknown) => `{${JSON.stringify(name)}:${JSON.stringify(value)}}`;

const encode = (text: string) => encodeURIComponent(text);

/** One arbitrary per class; each route gets one case of every class that applies to it. */
const classCases = (route: Route): fc.Arbitrary<Case>[] => {
  const get = route.method === 'GET';
  const contentType = contentTypeOf(route);
  const base = { path: fill(route, null, ''), query: '', headers: { 'content-type': contentType } };
  // A read may legitimately answer a value it accepts; a write must refuse a document this odd.
  const readOr = get ? 'answered' : 'refused';
  const json = route.bodyType === undefined;
  const arbitraries: fc.Arbitrary<Case>[] = [];
  const proto = fc.constantFrom(...PROTOTYPE_NAMES);

  // Prototype-chain names in every name-like query parameter: never a known name, always 400.
  arbitraries.push(
    fc
      .tuple(
        proto,
        fc.constantFrom(
          (p: string) => `${encode(p)}=1`,
          (p: string) => `filter[${encode(p)}]=x`,
          (p: string) => `filter[${encode(p)}.since]=2026-01-01T00:00:00Z`,
          (p: string) => `include=${encode(p)}`,
          (p: string) => `include=${encode(p)}.${encode(p)}`,
          (p: string) => `sort=${encode(p)}`,
          (p: string) => `sort=-${encode(p)}`,
          (p: string) => `page[${encode(p)}]=1`,
        ),
      )
      .map(([p, make]) => ({ ...base, query: make(p), expect: 'refused' as const })),
  );

  // Integers at and beyond 2^31 and 2^53 as page offsets and limits (a page beyond the end is 200).
  arbitraries.push(
    fc
      .tuple(fc.constantFrom('offset', 'page[offset]', 'limit', 'page[limit]'), fc.constantFrom(...DIGITS))
      .map(([name, digits]) => ({ ...base, query: `${name}=${digits}`, expect: readOr })),
  );

  // Odd text and key-sized values in query values and names.
  arbitraries.push(
    fc
      .tuple(
        fc.constantFrom(...filterNamesOf(route)),
        fc.oneof(fc.constantFrom(...ODD_URL_TEXT), fc.constantFrom(...KEY_SIZED).map(encode)),
        fc.constantFrom('value', 'name', 'include', 'sort'),
      )
      .map(([filter, text, where]) => ({
        ...base,
        query:
          where === 'value'
            ? `filter[${filter}]=${text}`
            : where === 'name'
              ? `filter[${text}]=x`
              : `${where}=${text}`,
        expect: where === 'value' ? readOr : ('refused' as const),
      })),
  );

  // Path ids: prototype names (the role-id pattern admits `constructor`), odd text, key-sized ids.
  const params = paramsOf(route);
  if (params.length > 0) {
    arbitraries.push(
      fc
        .tuple(
          fc.constantFrom(...params),
          fc.oneof(
            proto.map(encode),
            fc.constantFrom(...ODD_URL_TEXT),
            fc.constantFrom(...KEY_SIZED).map(encode),
          ),
        )
        .map(([param, raw]) => ({ ...base, path: fillRaw(route, param, raw), expect: 'refused' as const })),
    );
  }

  // Headers: odd and oversized values (Node refuses headers over 16 KB: still a JSON:API answer).
  arbitraries.push(
    fc
      .tuple(
        fc.constantFrom('x-request-id', 'if-match', 'idempotency-key', 'x-session-token', 'accept'),
        fc.constantFrom(
          ascii(2049),
          ascii(8 * 1024),
          ascii(20 * 1024),
          '9007199254740993',
          '"__proto__"',
          'ÿé',
          `application/vnd.api+json; ext="${ascii(2048)}"`,
        ),
      )
      .map(([name, value]) => ({
        ...base,
        headers: { ...base.headers, [name]: value },
        // A write's body is still wrong, so the header alone never lets one through.
        ...(hasBody(route) && { body: '{"data":{}}' }),
        expect: readOr,
      })),
  );

  if (hasBody(route) && json) {
    // Prototype-chain names as attribute, relationship and meta members.
    arbitraries.push(
      fc
        .tuple(proto, fc.constantFrom('attributes', 'relationships', 'meta'), fc.constantFrom(1, 'x', {}))
        .map(([p, where, value]) => ({
          ...base,
          body:
            where === 'relationships'
              ? documentText(route, { relationships: member(p, { data: { type: p, id: PLACEHOLDER_ID } }) })
              : documentText(route, { [where]: member(p, value) }),
          expect: 'refused' as const,
        })),
    );
    // Integers at and beyond 2^31 and 2^53 in attributes.
    arbitraries.push(
      fc.tuple(fc.constantFrom(...numberNames), fc.constantFrom(...NUMBERS)).map(([name, value]) => ({
        ...base,
        body: documentText(route, { attributes: member(name, value) }),
        expect: 'refused' as const,
      })),
    );
    // Odd text and storage-sized strings as attribute values, attribute names and relationship ids.
    arbitraries.push(
      fc
        .tuple(
          fc.constantFrom(...attributeNames),
          fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...ODD_TEXT) },
            { weight: 4, arbitrary: fc.constantFrom(...KEY_SIZED) },
            { weight: 1, arbitrary: fc.constantFrom(...ITEM_SIZED) },
          ),
          fc.constantFrom('value', 'name', 'relationship'),
          fc.constantFrom(...relationshipNames),
        )
        .map(([name, text, where, relationship]) => ({
          ...base,
          body:
            where === 'value'
              ? documentText(route, { attributes: member(name, text) })
              : where === 'name'
                ? documentText(route, { attributes: member(text.slice(0, 3000), 'x') })
                : documentText(route, {
                    relationships: member(relationship, { data: { type: relationship, id: text } }),
                  }),
          expect: 'refused' as const,
        })),
    );
  }
  return arbitraries;
};

const check = async (route: Route, c: Case) => {
  tried += 1;
  const res = await api.request(route.method, `${c.path}${c.query ? `?${c.query}` : ''}`, {
    token: admin,
    headers: c.headers,
    ...(c.body !== undefined && { body: c.body }),
  });
  const label = `${route.method} ${c.path.slice(0, 200)}?${c.query.slice(0, 200)} ${JSON.stringify(c.headers).slice(0, 200)} ${String(c.body).slice(0, 120)}`;
  const answer = `${label} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, answer).toBeLessThan(500);
  expect(res.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  // A read that accepts the value answers 2xx (its JSON:API body is validated by the test client).
  if (c.expect === 'answered' && res.status < 300) return;
  expect(res.status, answer).toBeGreaterThanOrEqual(400);
  // The token endpoint answers in OAuth 2.0's own error format (RFC 6749 §5.2); everything else in JSON:API's.
  if (route.bodyType === 'form' && res.body.error !== undefined)
    expect(typeof res.body.error, label).toBe('string');
  else expect(res.body.errors?.length, answer).toBeGreaterThan(0);
};

describe('every route refuses bad requests with a 4xx JSON:API error and writes nothing', () => {
  it.each(routes.map((r) => [r.id, r] as const))('%s', async (_id, route: Route) => {
    const before = await itemCount();
    const seed = SEED + route.id.length;
    const cases = [
      ...fc.sample(badRequest(route), { seed, numRuns: CASES_PER_ROUTE }),
      ...classCases(route).flatMap((arbitrary, i) => fc.sample(arbitrary, { seed: seed + i, numRuns: 1 })),
    ];
    for (const c of cases) await check(route, c);
    expect(await itemCount()).toBe(before);
  });
});
