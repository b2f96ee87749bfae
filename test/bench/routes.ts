/**
 * DynamoDB round trips and read capacity per request, for every collection GET route the demo data can
 * fill (paths with no id but `org_id`), at page sizes 1, 25 and 100, without and with each declared
 * include. Counted by an SDK middleware on the service's own client (ReturnConsumedCapacity TOTAL on
 * every call); the read that authenticates a session (one BatchGetItem of the session and the user's
 * principal, told apart by its keys) is reported apart.
 */

import { streets } from '#functions/places/definitions';
import { bulkPut } from '#shared/data/bulk';
import { dynamodb } from '#shared/data/clients';
import { getItem } from '#shared/data/repository';
import { counterKey } from '#shared/data/stored-resource';
import { newRecord } from '#shared/engine/record-writes';
import { resourceTypes } from '#shared/routes';
import { loadDemoData } from '../../infra/local/demo-data';
import { startLocalApi } from '../../infra/local/http-adapter';
import { seedRoutes } from './seed-routes';

interface Call {
  command: string;
  /** Reads only credentials (`SESSION#…`, `PRINCIPAL#…`): authentication, not the route's data. */
  auth: boolean;
  capacity: number;
  /** Items DynamoDB read: a Query's `ScannedCount` (filtered away or not), each key of a GetItem or BatchGetItem. */
  read: number;
  /** What the call returned: each item's identity and its size as DynamoDB bills it. */
  returned: { item: Item; bytes: number }[];
  /** Half units for an eventually consistent read, whole ones for a consistent one. */
  unit: number;
}

type Item = Record<string, unknown>;

/** A value's size as DynamoDB bills it, from the document client's plain form of the item. */
const valueSize = (value: unknown): number => {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(value).replace(/^-|\./g, '').length / 2) + 1;
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, x) => sum + 1 + valueSize(x), 0);
  if (value instanceof Set) return [...value].reduce((sum: number, x) => sum + valueSize(x), 0);
  // A map, like a list, costs 3 bytes and one more per element (AWS "DynamoDB item sizes and formats").
  return 3 + Object.keys(value).length + itemSize(value as Item);
};
const itemSize = (item: Item): number =>
  Object.entries(item).reduce((sum, [name, v]) => sum + Buffer.byteLength(name) + valueSize(v), 0);

const keysAsked = (input: Item): number =>
  Object.values((input.RequestItems as Record<string, { Keys?: unknown[] }>) ?? {}).reduce(
    (sum, r) => sum + (r.Keys?.length ?? 0),
    0,
  );

/** Items a read call read and returned (writes read none that an answer needs). */
const readOf = (command: string, input: Item, output: Item): Pick<Call, 'read' | 'returned'> => {
  const sized = (items: Item[]) => items.map((item) => ({ item, bytes: itemSize(item) }));
  if (command === 'QueryCommand') {
    return { read: Number(output.ScannedCount ?? 0), returned: sized((output.Items as Item[]) ?? []) };
  }
  if (command === 'GetItemCommand')
    return { read: 1, returned: sized(output.Item ? [output.Item as Item] : []) };
  if (command === 'BatchGetItemCommand') {
    return {
      read: keysAsked(input),
      returned: sized(Object.values((output.Responses as Record<string, Item[]>) ?? {}).flat()),
    };
  }
  return { read: 0, returned: [] };
};

/**
 * The least read capacity DynamoDB could charge a call for `items` of what it returned: 4 KB units, half
 * price when eventually consistent; a Query rounds its total, a GetItem or each BatchGetItem key its own
 * item, and any read costs at least one half unit.
 */
const capacityFor = (call: Call, items: Call['returned']): number => {
  const units = (bytes: number) => Math.max(1, Math.ceil(bytes / 4096)) * call.unit;
  if (items.length === 0) return 0;
  if (call.command === 'QueryCommand') return units(items.reduce((sum, i) => sum + i.bytes, 0));
  return items.reduce((sum, i) => sum + units(i.bytes), 0);
};

/**
 * The items an answer needs: each resource it returns (data and included, by type and id), the records
 * their declarations say they derive from (`derivedKeys`: a scheme's progress, a folder's tally), and the
 * collection counters its totals come from, and the records its path names (a nested collection's parent:
 * without it the answer is a 404, so it is read once). Anything else read (filtered away, records read to
 * find others, keys asked in organisations that hold none) is over-read.
 */
const neededBy = (answer: Set<string>, returned: Item[], named: Set<string>) => {
  const answered = returned.filter((item) => answer.has(`${item.type}\n${item.id}`));
  const derived = new Set(
    answered.flatMap((item) =>
      (resourceTypes.get(String(item.type))?.derivedKeys?.(String(item.org_id), String(item.id)) ?? []).map(
        (key) => `${key.pk}\n${key.sk}`,
      ),
    ),
  );
  return (item: Item) =>
    answer.has(`${item.type}\n${item.id}`) ||
    derived.has(`${item.pk}\n${item.sk}`) ||
    String(item.pk).endsWith('#counters') ||
    (typeof item.type === 'string' && named.has(String(item.id)));
};

const SIZES = [1, 25, 100];
const UUID_IN_PATH = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Why a route × include reads more than its answer needs, as measured (issue 19): the first rule that
 * matches names the cause, so the table says what each miss waits on.
 */
const MISSES: [RegExp, string][] = [
  [
    /^list(FeatureConfigurations|Properties|Streets|PreConstructionInformation|ConstructionPhasePlans|SsoProviders) /,
    'one Query per organisation the caller reads (31 here), most of them empty',
  ],
  [
    /^listWebhookDeliveries /,
    "the subscription (its path names no organisation, and its organisation names the deliveries' partition) is looked up in each organisation the caller reads (31 keys); the page itself reads the page and the day counts",
  ],
  [
    /^list(SiteHazards|PlanRisks) /,
    'only the page of the ids the parent lists is read, but the parent (its path names no organisation, and its list is what names the children) is looked up in each organisation the caller reads',
  ],
  [/^list(Roles|Organisations) |^searchProjects /, 'read whole and paged in memory'],
  [
    /^evaluateQualificationSpecification /,
    'the specification (its path names no organisation) is looked up in each organisation the caller reads (31 keys); the people are one BatchGetItem; the evaluations are computed, so the bench matches none of them to items',
  ],
  [
    /^list(RateCodeVersions|Events) /,
    'answers objects the bench cannot match to stored items (a measuring gap)',
  ],
];
const missOf = (route: string, include: string) =>
  MISSES.find(([pattern]) => pattern.test(`${route} ${include}`))?.[1] ?? 'not yet diagnosed';

/**
 * Published on-demand prices (us-east-1 list prices, 2025) for the cost per million calls: HTTP API
 * requests, Lambda requests and arm64 duration at the functions' 512 MB, DynamoDB read request units.
 */
const PRICES = {
  httpApiPerMillion: 1.0,
  lambdaPerMillion: 0.2,
  lambdaArmGbSecond: 0.0000133334,
  readUnitPerMillion: 0.125,
};
const MEMORY_GB = 0.5;

/** Dollars per million calls of a request that took `ms` in the handler and consumed `rcu`. */
const costPerMillion = (ms: number, rcu: number) =>
  PRICES.httpApiPerMillion +
  PRICES.lambdaPerMillion +
  (Math.max(1, Math.ceil(ms)) / 1000) * MEMORY_GB * PRICES.lambdaArmGbSecond * 1e6 +
  rcu * PRICES.readUnitPerMillion;
// The request's credentials, and its request budget's lease (admission overhead, one write per fiftieth
// of a budget): counted apart from the route's own calls.
const CREDENTIAL_KEY = /^(SESSION|PRINCIPAL|BUDGET)#/;
const readsOnlyCredentials = (input: Record<string, unknown>) => {
  // BatchGetItem names `Keys`; a BatchWriteItem (imports) names none and is never authentication.
  const keys = Object.values((input.RequestItems as Record<string, { Keys?: Item[] }>) ?? {}).flatMap(
    (r) => r.Keys ?? [],
  );
  if (input.Key) keys.push(input.Key as Item);
  return keys.length > 0 && keys.every((k) => CREDENTIAL_KEY.test(String(k.pk)));
};

const capacityOf = (consumed: unknown): number =>
  Array.isArray(consumed)
    ? consumed.reduce((sum: number, c: { CapacityUnits?: number }) => sum + (c.CapacityUnits ?? 0), 0)
    : ((consumed as { CapacityUnits?: number } | undefined)?.CapacityUnits ?? 0);

export const benchRoutes = async (apiPort: number) => {
  const calls: Call[] = [];
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const command = context.commandName ?? '';
      calls.push({
        command,
        auth: readsOnlyCredentials(args.input as Record<string, unknown>),
        capacity: capacityOf((out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity),
        unit: (args.input as { ConsistentRead?: boolean }).ConsistentRead ? 1 : 0.5,
        ...readOf(command, args.input as Item, out.output as unknown as Item),
      });
      return out;
    },
    { step: 'initialize', name: 'countCalls' },
  );
  const demo = await loadDemoData();
  const org = demo.organisations[0];
  if (!org?.user) throw new Error('demo data has no session user');
  const token = org.user.session_token;
  // On the port the seeding's service-account tokens name as their issuer (seed-environment.ts).
  const { server, url } = await startLocalApi(apiPort);
  const get = async (path: string) => {
    calls.length = 0;
    const started = performance.now();
    const res = await fetch(`${url}${path}`, { headers: { 'x-session-token': token } });
    const body = (await res.json()) as {
      data?: { type: string; id: string }[];
      included?: { type: string; id: string }[];
      meta?: { features?: { params?: { include?: { options?: string[] } } } };
    };
    const data = calls.filter((c) => !c.auth);
    const answer = new Set([...(body.data ?? []), ...(body.included ?? [])].map((r) => `${r.type}\n${r.id}`));
    const needed = neededBy(
      answer,
      data.flatMap((c) => c.returned.map((r) => r.item)),
      new Set(path.split('?')[0]?.match(UUID_IN_PATH) ?? []),
    );
    // Each needed item once, however many calls returned it.
    const neededItems = new Set(
      data.flatMap((c) => c.returned.filter((r) => needed(r.item)).map((r) => `${r.item.pk}\n${r.item.sk}`)),
    );
    const dataCapacity = data.reduce((sum, c) => sum + c.capacity, 0);
    const neededCapacity = data.reduce(
      (sum, c) =>
        sum +
        capacityFor(
          c,
          c.returned.filter((r) => needed(r.item)),
        ),
      0,
    );
    const read = data.reduce((sum, c) => sum + c.read, 0);
    return {
      status: res.status,
      body,
      calls: calls.length,
      auth_calls: calls.length - data.length,
      data_calls: data.length,
      scans: calls.filter((c) => c.command === 'ScanCommand').length,
      capacity: calls.reduce((sum, c) => sum + c.capacity, 0),
      items_read: read,
      items_needed: neededItems.size,
      // Reading nothing for an empty answer is the minimum; reading anything for it is over-read.
      read_ratio: read === 0 ? 1 : read / Math.max(1, neededItems.size),
      capacity_ratio: dataCapacity === 0 ? 1 : dataCapacity / Math.max(0.5, neededCapacity),
      returned: answer.size,
      /** The types answered: a page with fewer types may need fewer include reads, whatever its size. */
      kinds: new Set([...(body.data ?? []), ...(body.included ?? [])].map((r) => r.type)),
      ms: performance.now() - started,
    };
  };
  /**
   * Page 1 and page 400 (25 a page) of a 10,000-record collection, by offset and by cursor (walking
   * `links.next` to it): the items and capacity each reads. A cursor page should cost page 1's at any
   * depth; an offset page costs everything before it.
   */
  const depth = async () => {
    const DEPTH_RECORDS = 10_000;
    const PAGE = 400;
    const start = Date.UTC(2020, 0, 1);
    const records = Array.from({ length: DEPTH_RECORDS }, (_, i) =>
      newRecord(
        streets,
        org.id,
        {
          attributes: {
            name: `${['Mill', 'Bridge', 'Church', 'Station', 'Castle'][i % 5]} Lane ${Math.floor(i / 5)}`,
            usrn: String(40_000_000 + i),
            town: 'Kendal',
          },
        },
        new Date(start + i * 60_000),
      ),
    );
    // Written in bulk, not one transaction each: the counter is raised by what was written.
    const counter = counterKey(org.id, streets.type);
    const counted = (await getItem<{ count?: number }>(counter))?.count ?? 0;
    await bulkPut([...records, { ...counter, count: counted + DEPTH_RECORDS }] as unknown as Item[]);
    const path = '/v3/governance/streets?sort=name&page[limit]=25';
    const figures = (r: Awaited<ReturnType<typeof get>>) => ({
      items_read: r.items_read,
      items_needed: r.items_needed,
      data_calls: r.data_calls,
      rcu: r.capacity,
    });
    const offsetFirst = await get(`${path}&page[offset]=0`);
    const offsetDeep = await get(`${path}&page[offset]=${(PAGE - 1) * 25}`);
    const cursorFirst = await get(`${path}&page[cursor]=`);
    let next = (cursorFirst.body as { links?: { next?: string } }).links?.next;
    for (let page = 2; page < PAGE && next; page++) {
      const at = new URL(next);
      next = ((await get(`${at.pathname}${at.search}`)).body as { links?: { next?: string } }).links?.next;
    }
    if (!next) throw new Error('the cursor walk ended before page 400');
    const at = new URL(next);
    const cursorDeep = await get(`${at.pathname}${at.search}`);
    return {
      records: DEPTH_RECORDS,
      page: PAGE,
      offset_page_1: figures(offsetFirst),
      offset_page_400: figures(offsetDeep),
      cursor_page_1: figures(cursorFirst),
      cursor_page_400: figures(cursorDeep),
      offset_items_read_page_400_vs_page_1: (offsetDeep.items_read / offsetFirst.items_read).toFixed(2),
      cursor_items_read_page_400_vs_page_1: (cursorDeep.items_read / cursorFirst.items_read).toFixed(2),
    };
  };
  const rows = [];
  const authCalls = new Set<number>();
  let deep: Awaited<ReturnType<typeof depth>> | undefined;
  try {
    await get(`/v3/orgs/${org.id}/people/teams`); // warms the grant cache
    // Before seeding, while the caller reads two organisations (the streets collection spans them).
    deep = await depth();
    const seeded = await seedRoutes({ url, token, orgId: org.id });
    await get(`/v3/orgs/${org.id}/people/teams`); // warms the grant cache again, for the seeded grants
    for (const route of seeded) {
      if ('skipped' in route) {
        rows.push({ route: route.route, status: `not measured: ${route.skipped}` });
        continue;
      }
      const at = (query: string) => `${route.path}${route.path.includes('?') ? '&' : '?'}${query}`;
      const first = await get(at('page[limit]=1'));
      if (first.status !== 200) {
        rows.push({ route: route.route, status: first.status });
        continue;
      }
      const includes = first.body.meta?.features?.params?.include?.options ?? [];
      for (const include of ['', ...includes]) {
        const runs: Awaited<ReturnType<typeof get>>[] = [];
        for (const size of SIZES) {
          runs.push(await get(at(`page[limit]=${size}${include ? `&include=${include}` : ''}`)));
        }
        for (const r of runs) authCalls.add(r.auth_calls);
        rows.push({
          route: route.route,
          records: route.records,
          include: include || '—',
          data_calls: runs.map((r) => r.data_calls).join(' / '),
          // More calls for a bigger page that answers no new type of resource.
          grows_with_page_size: runs.some(
            (r, i) =>
              i > 0 &&
              r.data_calls > (runs[i - 1]?.data_calls ?? 0) &&
              [...r.kinds].every((kind) => runs[i - 1]?.kinds.has(kind)),
          ),
          returned: runs.map((r) => r.returned).join(' / '),
          items_read: runs.map((r) => r.items_read).join(' / '),
          items_needed: runs.map((r) => r.items_needed).join(' / '),
          read_vs_needed: runs.map((r) => r.read_ratio.toFixed(2)).join(' / '),
          rcu: runs.map((r) => r.capacity.toFixed(1)).join(' / '),
          rcu_vs_needed: runs.map((r) => r.capacity_ratio.toFixed(2)).join(' / '),
          over_1_1: runs.some((r) => r.read_ratio > 1.1 || r.capacity_ratio > 1.1),
          why: runs.some((r) => r.read_ratio > 1.1 || r.capacity_ratio > 1.1)
            ? missOf(route.route, include || '—')
            : '',
          scans: runs.reduce((sum, r) => sum + r.scans, 0),
          ms_at_25: (runs[1]?.ms ?? 0).toFixed(1),
          dollars_per_million_at_25: costPerMillion(runs[1]?.ms ?? 0, runs[1]?.capacity ?? 0).toFixed(2),
        });
      }
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
  const measured = rows.filter((r) => 'data_calls' in r);
  return {
    prices: `${JSON.stringify(PRICES)}, ${MEMORY_GB * 1024} MB functions; duration is the local round trip (an upper bound on Lambda billed time)`,
    routes_measured: new Set(measured.map((r) => r.route)).size,
    auth_calls_per_request: [...authCalls].join(' or '),
    combinations: measured.length,
    growing_with_page_size: measured
      .filter((r) => 'grows_with_page_size' in r && r.grows_with_page_size)
      .map((r) => `${r.route} ${'include' in r ? r.include : ''}`),
    scans: measured.reduce((sum, r) => sum + ('scans' in r ? Number(r.scans) : 0), 0),
    depth: deep,
    over_1_1_times_needed: measured
      .filter((r) => 'over_1_1' in r && r.over_1_1)
      .map((r) => `${r.route} ${'include' in r ? r.include : ''}`),
    rows,
  };
};
