/**
 * Tenant isolation, proven over the whole route table (spec: outside the caller's organisations is 404,
 * never 403; ARCHITECTURE "Data" rule 1). Organisations A and B each hold one real record of every kind
 * (test/support/every-record.ts), so every path parameter of every route names a record that exists.
 * B's administrator (an OAuth2 client) and B's user (a session) call every authenticated route:
 *
 * - with A's records in the path (all of A's ids, and each of A's records among B's own ids): 404
 *   NOT_FOUND.001, the answer a record that does not exist gets; write bodies name A's records too;
 * - with B's own path (or none) and A's records named in the body or in filters: nothing of A's shows,
 *   and the answer is the one the same request gets with random ids in place of A's.
 *
 * After every call, every item of A's in the table is as it was, and A's records read through the API as
 * A are unchanged. A route with a path parameter that names no record here fails (it does not skip), so
 * new routes cannot escape.
 *
 * The table is not scanned after each call: every write that changes an item is on the table's stream,
 * so the items the call wrote that were or became A's are read again and compared. One full scan makes
 * the baseline, and another at the end proves the looks after each call missed nothing.
 */
import { randomUUID } from 'node:crypto';
import {
  type AttributeValue,
  BatchGetItemCommand,
  type BatchGetItemCommandInput,
  type BatchGetItemCommandOutput,
  ScanCommand,
  type ScanCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionPrincipal, startSession } from '#shared/auth/sessions';
import { dynamodb } from '#shared/data/clients';
import { type Route, routes } from '#shared/routes';
import { createServiceAccountClient } from '../../infra/local/records';
import { type ApiResponse, type RequestOptions, startTestApi, type TestApi } from '../support/api';
import {
  BODILESS,
  buildEveryRecord,
  type EveryRecord,
  type Ids,
  recordKey,
  requestBodies,
} from '../support/every-record';
import { STREET_WORKS_ORGS } from '../support/street-works-config';
import { type TableWrites, watchTableWrites } from '../support/table-writes';
import { newTenant } from '../support/tenants';

let api: TestApi;
let a: EveryRecord;
let b: EveryRecord;
let tokenA: string;
let tokenB: string;
let nobody: string;
/** Every id of A's records (and A's clients), from the table itself: what a leak would show. */
let secretsOfA: Set<string>;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const paramsOf = (route: Route) => [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
const authenticated: Route[] = routes.filter((r) => r.auth.length > 0);
const hasBody = (route: Route) =>
  route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT';

// ---------------------------------------------------------------------------------------------------
// A's items in the table, and A's records as A reads them through the API.

type Item = Record<string, unknown>;
/** An item with its attributes' names in one order, whatever order DynamoDB answered them in. */
const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Item)[k])]),
    );
  return value;
};

/** The partitions of A's principals (`PRINCIPAL#<id>`), found in the first look at the table. */
let principalsOfA = new Set<string>();
type Image = Record<string, { S?: string } | undefined>;
/**
 * Whether an item is A's: it carries A's `org_id`, lies in A's partitions, or is a principal (credential)
 * item of A's users and service accounts, which carry no organisation. Nothing is excluded.
 */
const isA = (item: Image | undefined) => {
  const org = a.ids.org_id ?? '';
  const pk = item?.pk?.S ?? '';
  return item?.org_id?.S === org || pk.startsWith(`ORG#${org}#`) || principalsOfA.has(pk);
};
const keyOf = (item: Image) => `${item.pk?.S} ${item.sk?.S}`;
const json = (item: Item) => JSON.stringify(canonical(item));

/** Every item in the table (a consistent parallel Scan): the baseline, and the backstop at the end. */
const everyItem = async (): Promise<Record<string, AttributeValue>[]> => {
  const segments = 2;
  const pages = await Promise.all(
    Array.from({ length: segments }, async (_, Segment) => {
      const items: Record<string, AttributeValue>[] = [];
      let ExclusiveStartKey: Record<string, AttributeValue> | undefined;
      do {
        const page: ScanCommandOutput = await dynamodb.send(
          new ScanCommand({
            TableName: process.env.TABLE_NAME,
            ConsistentRead: true,
            ExclusiveStartKey,
            Segment,
            TotalSegments: segments,
          }),
        );
        items.push(...(page.Items ?? []));
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey);
      return items;
    }),
  );
  return pages.flat();
};
const itemsOfA = async () =>
  new Map((await everyItem()).filter((item) => isA(item)).map((item) => [keyOf(item), json(item)]));

/** The items at these keys now (consistent reads), by key; a key with no item is absent. */
const itemsAt = async (keys: Record<string, AttributeValue>[]) => {
  const found = new Map<string, Record<string, AttributeValue>>();
  for (let i = 0; i < keys.length; i += 100) {
    let RequestItems: BatchGetItemCommandInput['RequestItems'] = {
      [process.env.TABLE_NAME ?? '']: { Keys: keys.slice(i, i + 100), ConsistentRead: true },
    };
    while (RequestItems && Object.keys(RequestItems).length > 0) {
      const out: BatchGetItemCommandOutput = await dynamodb.send(new BatchGetItemCommand({ RequestItems }));
      for (const item of Object.values(out.Responses ?? {}).flat()) found.set(keyOf(item), item);
      RequestItems = out.UnprocessedKeys;
    }
  }
  return found;
};

/** A's items as the last look left them (canonical JSON by `pk sk`). */
let tableOfA = new Map<string, string>();
let writes: TableWrites;
/**
 * What changed among A's items since the last look (and makes the present the new baseline). Every write
 * that changes an item is on the table's stream, so only the keys written since the last look can differ:
 * those that were A's, and those written as A's. Each is read again and compared with the baseline.
 */
const changesToA = async (): Promise<string[]> => {
  const keys = new Map<string, Record<string, AttributeValue>>();
  for (const { dynamodb: record } of await writes.since()) {
    const written = record?.Keys as Record<string, AttributeValue> | undefined;
    if (!written) continue;
    const key = keyOf(written);
    if (tableOfA.has(key) || isA(written) || isA(record?.NewImage)) keys.set(key, written);
  }
  const now = await itemsAt([...keys.values()]);
  const changes: Record<'added' | 'removed' | 'changed', string[]> = { added: [], removed: [], changed: [] };
  for (const key of keys.keys()) {
    const item = now.get(key);
    const before = tableOfA.get(key);
    const after = item && isA(item) ? json(item) : undefined;
    if (before === after) continue;
    if (after === undefined) tableOfA.delete(key);
    else tableOfA.set(key, after);
    changes[before === undefined ? 'added' : after === undefined ? 'removed' : 'changed'].push(key);
  }
  return Object.entries(changes).flatMap(([kind, found]) => found.map((key) => `${kind} ${key}`));
};
/** How the table's A differs from the baseline: what the stream-led looks would have had to report. */
const differencesFrom = (baseline: Map<string, string>, now: Map<string, string>) => [
  ...[...now.keys()].filter((k) => !baseline.has(k)).map((k) => `added ${k}`),
  ...[...baseline.keys()].filter((k) => !now.has(k)).map((k) => `removed ${k}`),
  ...[...now.keys()]
    .filter((k) => baseline.has(k) && baseline.get(k) !== now.get(k))
    .map((k) => `changed ${k}`),
];

/** For each route and parameter, the GET route that reads the record it names, if there is one. */
const readerOf = (route: Route, param: string): Route | undefined => {
  const prefix = route.path.slice(0, route.path.indexOf(`{${param}}`) + param.length + 2);
  const gets = routes.filter((r) => r.method === 'GET' && r.auth.length > 0);
  const segment = prefix.split('/').slice(-2).join('/');
  return (
    gets.find((r) => r.path === prefix) ??
    gets.find((r) => r.path.endsWith(`/${segment}`) && recordKey(r, param) === recordKey(route, param))
  );
};
const fill = (route: Route, idOf: (param: string) => string) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) => idOf(name));
/** Presigned URLs are signed afresh on every read: compare them without their signature. */
const stable = (body: unknown) =>
  JSON.stringify(body, (_, v) => (typeof v === 'string' && v.includes('X-Amz-') ? v.split('?')[0] : v));

const readsOfA = new Map<string, string>();
const readAsA = async (path: string) => {
  const res = await api.get(path, tokenA);
  return `${res.status} ${stable(res.body?.data)}`;
};
/** A's records this route names, read through the API as A: what changed since the last read. */
const readPathsOfA = (route: Route): string[] =>
  paramsOf(route)
    .map((p) => readerOf(route, p))
    .filter((r): r is Route => r !== undefined)
    .map((r) => fill(r, (p) => a.idFor(r, p)));
const changedReadsOfA = async (route: Route): Promise<string[]> => {
  const reads = await Promise.all(
    [...new Set(readPathsOfA(route))].map(async (path) => [path, await readAsA(path)] as const),
  );
  const changed = reads
    .filter(([path, now]) => readsOfA.get(path) !== now)
    .map(([path, now]) => `${path}: ${readsOfA.get(path)} → ${now}`);
  for (const [path, now] of reads) readsOfA.set(path, now);
  return changed;
};

// ---------------------------------------------------------------------------------------------------
// Requests.

/** Ids for a request: the route's parameters from A (`ofA`) or B, and A's ids for everything a body names. */
const idsFor = (route: Route, ofA: readonly string[]): Ids => {
  const ids: Record<string, string> = { ...a.ids };
  for (const param of paramsOf(route)) {
    if (!ofA.includes(param)) ids[recordKey(route, param)] = b.idFor(route, param);
  }
  return ids;
};
const pathFor = (route: Route, ofA: readonly string[]) =>
  fill(route, (p) => (ofA.includes(p) ? a.idFor(route, p) : b.idFor(route, p)));
const bodyFor = (route: Route, ids: Ids): object | undefined => {
  if (!hasBody(route) || route.bodyType) return undefined;
  const body = requestBodies[route.id];
  if (!body && !BODILESS.has(route.id))
    throw new Error(`No request body for ${route.id}: add one to its area's examples.ts`);
  return body?.(ids);
};

/** The same text with each of A's ids replaced by a random one (the same one each time it occurs). */
const withRandomIds = (text: string) => {
  const random = new Map<string, string>();
  return text.replace(UUID, (id) =>
    secretsOfA.has(id.toLowerCase()) ? (random.get(id) ?? random.set(id, randomUUID()).get(id) ?? '') : id,
  );
};
const namesA = (text: string) => (text.match(UUID) ?? []).some((id) => secretsOfA.has(id.toLowerCase()));
/** A's ids in an answer that the request did not name itself (an error may quote what it was sent). */
const leaksOfA = (res: ApiResponse, sent: string) =>
  [...new Set(res.text.match(UUID) ?? [])].filter(
    (id) => secretsOfA.has(id.toLowerCase()) && !sent.toLowerCase().includes(id.toLowerCase()),
  );
/** What a client can tell apart: the status and each error's code, title, source and detail. */
const answer = (res: ApiResponse) => ({
  status: res.status,
  errors: (res.body?.errors ?? []).map(
    (e: { code?: string; title: string; source?: object; detail?: string }) => ({
      code: e.code,
      title: e.title,
      source: e.source,
      detail: e.detail?.replace(UUID, '<id>'),
    }),
  ),
});

interface Caller {
  name: string;
  as: () => RequestOptions;
}
/**
 * Routes of a user's own inbox and preferences (issue 43): a service account has none, so it is refused
 * (403) whatever the path names, and A's own reads are made by A's signed-in user, who owns A's envelope.
 */
const personal = (route: Route) => route.area === 'notifications' && route.permission === 'authenticated';

const callers: Caller[] = [
  { name: 'B’s administrator (OAuth2)', as: () => ({ token: tokenB }) },
  { name: 'B’s user (Session)', as: () => ({ headers: { 'x-session-token': b.session } }) },
];

/** A's own path-free queries that name A's records, by route id (collections of the caller's organisations). */
const queriesNamingA: Record<string, (ids: Ids) => string[]> = {
  listFeatureConfigurations: (i) => [`filter[organisation]=${i.org_id}`],
  listSsoProviders: (i) => [`filter[organisation]=${i.org_id}`],
  listProperties: (i) => [
    `filter[organisation]=${i.org_id}`,
    'filter[location.box.bottom_left]=54,-3&filter[location.box.top_right]=55,-2',
  ],
  listStreets: (i) => [`filter[organisation]=${i.org_id}`, 'filter[usrn]=20100123'],
  listCostRollups: (i) =>
    [`eq(organisation,${b.ids.org_id})`, `eq(organisation,${i.org_id})`].flatMap((org) =>
      ['self', 'all'].map(
        (depth) =>
          `filter=${encodeURIComponent(`and(${org},eq(cost_centre,${i.scheme_id}),eq(cost_centre_type,schemes),eq(depth,${depth}))`)}`,
      ),
    ),
  listPreConstructionInformation: (i) => [`filter[scheme]=${i.scheme_id}`],
  listConstructionPhasePlans: (i) => [`filter[scheme]=${i.scheme_id}`],
  searchProjects: () => ['filter[prefix]=Re'],
  listComments: (i) => [`filter[subject_id]=${i.contact_id}`],
  evaluateQualificationSpecification: (i) => [`filter[person]=${i.person}`],
  listCustomerInteractions: (i) => [`filter[contact]=${i.contact_id}`],
  listCustomerAppointments: (i) => [`filter[contact]=${i.contact_id}`],
  listAuditEvents: (i) => [`filter[subject_id]=${i.vehicle_id}`],
  // Any event id: A's key range answers (empty here), its links naming A.
  listNotificationAcknowledgements: (i) => [`filter[event]=${i.org_id}`],
  listFolders: (i) => [`filter[parent]=${i.root_folder}`, `filter[scheme]=${i.scheme_id}`],
};
const queriesFor = (route: Route): string[] => ['', ...(queriesNamingA[route.id]?.(a.ids) ?? [])];

// ---------------------------------------------------------------------------------------------------

beforeAll(async () => {
  api = await startTestApi();
  // A and B are the organisations the test configuration routes street-works references to.
  const [tenantA, tenantB] = await Promise.all([
    newTenant('Isolation A', 2, STREET_WORKS_ORGS.TW),
    newTenant('Isolation B', 2, STREET_WORKS_ORGS.TWX),
  ]);
  [tokenA, tokenB, nobody] = await Promise.all([
    api.token(tenantA.admin),
    api.token(tenantB.admin),
    createServiceAccountClient('no grants', []).then((c) => api.token(c)),
  ]);
  [a, b] = await Promise.all([
    buildEveryRecord(api, tenantA, { token: tokenA, reference: 'TW' }),
    buildEveryRecord(api, tenantB, { token: tokenB, reference: 'TWX' }),
  ]);
  // The stream is read from here on; what it held before is in the one full look below.
  writes = await watchTableWrites();
  await writes.since();
  const every = await everyItem();
  principalsOfA = new Set(
    every
      .filter((item) => isA(item) && /#(users|service-accounts)$/.test(item.pk?.S ?? ''))
      .map((item) => `PRINCIPAL#${item.id?.S ?? ''}`),
  );
  tableOfA = new Map(every.filter((item) => isA(item)).map((item) => [keyOf(item), json(item)]));
  secretsOfA = new Set(
    [...tableOfA.values()]
      .flatMap((json) => {
        const item = JSON.parse(json) as Record<string, AttributeValue>;
        return [item.id?.S, item.client_id?.S, item.org_id?.S, item.sk?.S];
      })
      .filter((v): v is string => typeof v === 'string' && new RegExp(`^${UUID.source}$`, 'i').test(v))
      .map((v) => v.toLowerCase()),
  );
  await Promise.all(
    [...new Set(authenticated.flatMap(readPathsOfA))].map(async (path) =>
      readsOfA.set(path, await readAsA(path)),
    ),
  );
}, 180_000);
afterAll(async () => {
  await writes?.stop();
  await api.close();
});

describe('the records the cases name', () => {
  it('every path parameter of every route names a record of A and of B', () => {
    const missing = authenticated.flatMap((route) =>
      paramsOf(route).flatMap((p) => {
        try {
          a.idFor(route, p);
          b.idFor(route, p);
          return [];
        } catch (error) {
          return [(error as Error).message];
        }
      }),
    );
    expect(missing).toEqual([]);
  });

  it('every write route has a request body, or is known to take none', () => {
    const missing = authenticated.filter(
      (r) => hasBody(r) && !r.bodyType && !requestBodies[r.id] && !BODILESS.has(r.id),
    );
    expect(missing.map((r) => r.id)).toEqual([]);
  });

  it.each(authenticated.filter((r) => r.method === 'GET').map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s answers A’s own administrator, with A’s records where it names them',
    async (_, route) => {
      const query = queriesFor(route).at(-1);
      const path = `${pathFor(route, paramsOf(route))}${query ? `?${query}` : ''}`;
      // Downloads answer 303 (302 for an image's variant) to a presigned URL: the control is the redirect, not the file.
      const res = await fetch(`${api.url}${path}`, {
        headers: personal(route) ? { 'x-session-token': a.session } : { authorization: `Bearer ${tokenA}` },
        redirect: 'manual',
      });
      const text = await res.text();
      expect([200, 302, 303], `${path}: ${text}`).toContain(res.status);
      if (queriesNamingA[route.id]) expect(namesA(text), `${path}: ${text}`).toBe(true);
    },
  );
});

interface Case {
  route: Route;
  caller: Caller;
  /** Parameters that name A's records; the rest name B's. */
  ofA: string[];
}
const label = (c: Case) =>
  `${c.route.method} ${c.route.path}, ${c.caller.name}, ${c.ofA.length === 0 ? 'B’s path' : `A’s ${c.ofA.join(', ')}`}`;

/**
 * Path parameters that name no record but one of a fixed few, the same in A and B (an image's variant:
 * thumb, medium or large): they take part in A's paths, never make a case of their own.
 */
const NAMES_NO_RECORD: ReadonlySet<string> = new Set(['variant']);

/** Every way a path can name A's records: all of A's ids, and each of A's records among B's own. */
const pathCases: Case[] = authenticated.flatMap((route) => {
  const params = paramsOf(route);
  const variants = params.length === 0 ? [] : [params];
  if (params.length > 1)
    variants.push(...params.filter((p) => p !== 'org_id' && !NAMES_NO_RECORD.has(p)).map((p) => [p]));
  return variants.flatMap((ofA) => callers.map((caller) => ({ route, caller, ofA })));
});
/** B's own path, A's records in the body or in filters: writes, and collections of no record. */
const namingCases: Case[] = authenticated
  .filter((r) => hasBody(r) || paramsOf(r).every((p) => p === 'org_id'))
  .flatMap((route) => callers.map((caller) => ({ route, caller, ofA: [] })));

/** Runs `check`, then always compares A's table and A's reads (so one failure never hides another). */
const thenAUnchanged = async (route: Route, check: () => Promise<void>) => {
  let failure: unknown = null;
  try {
    await check();
  } catch (error) {
    failure = error;
  }
  const [table, reads] = await Promise.all([changesToA(), changedReadsOfA(route)]);
  // Soft: what changed of A's is reported for this call even when the call's own check failed too.
  expect.soft(table, 'A’s items in the table').toEqual([]);
  expect.soft(reads, 'A’s records read as A').toEqual([]);
  if (failure) throw failure;
};

describe('B’s callers naming A’s records in the path are refused with 404, and change nothing of A', () => {
  it.each(pathCases.map((c) => [label(c), c] as const))('%s', (_, c) =>
    thenAUnchanged(c.route, async () => {
      const body = bodyFor(c.route, idsFor(c.route, c.ofA));
      const res = await api.request(c.route.method, pathFor(c.route, c.ofA), {
        ...c.caller.as(),
        ...(body && { body }),
      });
      if (personal(c.route) && !c.route.path.includes('{org_id}') && c.caller === callers[0]) {
        // The same refusal for A's ids as for random ones: it says nothing of what exists (a path naming
        // A's organisation is refused as any other: 404).
        expect(res.status, res.text).toBe(403);
        expect(res.body.errors[0]).toMatchObject({
          code: 'AUTH.002',
          detail: expect.stringMatching(/no inbox/),
        });
        return;
      }
      expect(res.status, res.text).toBe(404);
      expect(res.body.errors[0]).toMatchObject({ status: '404', code: 'NOT_FOUND.001' });
    }),
  );
});

const seesNothingOfA = (c: Case) =>
  thenAUnchanged(c.route, async () => {
    const path = pathFor(c.route, []);
    const body = bodyFor(c.route, idsFor(c.route, []));
    const requests = hasBody(c.route)
      ? [{ path, body }]
      : queriesFor(c.route).map((q) => ({ path: q ? `${path}?${q}` : path, body: undefined }));
    for (const request of requests) {
      const call = (target: string, payload: object | undefined) =>
        api.request(c.route.method, target, { ...c.caller.as(), ...(payload && { body: payload }) });
      const sent = `${request.path} ${request.body ? JSON.stringify(request.body) : ''}`;
      const res = await call(request.path, request.body);
      expect(leaksOfA(res, sent), `${sent} → ${res.text}`).toEqual([]);
      if (namesA(sent)) {
        const random = await call(
          withRandomIds(request.path),
          request.body && JSON.parse(withRandomIds(JSON.stringify(request.body))),
        );
        expect(answer(res), `${sent}: A’s ids and random ids are told apart`).toEqual(answer(random));
      }
    }
  });

describe('B’s callers naming A’s records in bodies and filters see nothing of A, and change nothing of A', () => {
  it.each(namingCases.map((c) => [label(c), c] as const))('%s', async (_, c) => {
    try {
      await seesNothingOfA(c);
    } finally {
      // Logging out ends the session that sent it: B's user signs in again for the calls after it.
      if (c.route.id === 'endSession')
        b.session = (await startSession(sessionPrincipal(b.session) ?? '')).token;
    }
  });
});

describe('every authenticated route', () => {
  it.each(authenticated.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: no credentials is 401 AUTH.001',
    async (_, route) => {
      const res = await api.request(route.method, pathFor(route, paramsOf(route)));
      expect(res.status).toBe(401);
      expect(res.body.errors[0]).toMatchObject({ code: 'AUTH.001' });
    },
  );

  const withPermission = authenticated.filter((r) => r.permission !== 'authenticated');
  it.each(withPermission.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: a principal with no grants is 403 AUTH.002',
    async (_, route) => {
      const res = await api.request(route.method, pathFor(route, paramsOf(route)), { token: nobody });
      expect(res.status).toBe(403);
      expect(res.body.errors[0]).toMatchObject({ code: 'AUTH.002', title: 'Forbidden' });
    },
  );
});

describe('the look after each call missed nothing', () => {
  it('a full scan of the table at the end finds A’s items as the last look left them', async () => {
    expect(differencesFrom(tableOfA, await itemsOfA()), 'A’s items in the table').toEqual([]);
  });
});
