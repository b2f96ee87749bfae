/**
 * Issue 19, item 1: data for the routes bench. After `loadDemoData()`, fills every collection GET route
 * with at least 30 records in the collection one concrete path answers (a nested route: under one
 * parent), with related records behind every include the route declares, and returns that path.
 *
 * Records are made through the HTTP API, as a client makes them (JSON:API bodies, `X-Session-Token`, or
 * a service account's bearer token), so counters, derived records, events and uniqueness rules are the
 * real ones. The service's own write functions are used only where no route creates the type:
 * organisations (and the user's grants in them, which stand for the bridges not built yet, as
 * `createServiceAccountClient` writes them), feature configurations and streets (seeded data), a
 * second user's session (sessions come from SSO login), and street-works permits and activities (they
 * arrive through SNS; `processNotification` is what the receiver calls once a message is verified).
 * Types the service makes itself are caused as a client causes them: audit entries by writes (the
 * table's stream is polled here as `npm start` polls it, and handed to the deployed consumer), jobs by
 * large imports and roll-up exports (run to their end by the local workers), webhook deliveries by
 * events, plan versions by plan edits, document versions by uploads.
 *
 * The environment must be the local stack's: S3 buckets (documents, device backups, exports),
 * `LAMBDA_ENDPOINT` (a free loopback port: the job workers are started on it here), `TOKEN_ISSUER` equal
 * to `api.url` with a signing key (the service account's token), `WEBHOOK_ALLOW_LOOPBACK=true` (the
 * deliveries go to a receiver on loopback), and `STREET_WORKS_ORGANISATIONS` routing a reference prefix
 * to an organisation id (created here) for the street-works routes: `seedEnvironment` (seed-environment.ts)
 * makes them, and `seed-routes.check.ts` shows how they are set.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { grantRecord, grantWrites } from '#functions/iam/grant-writes';
import { streets } from '#functions/places/definitions';
import { processNotification } from '#functions/street-works/receive';
import { startSession } from '#shared/auth/sessions';
import { config } from '#shared/config';
import { tableName } from '#shared/data/clients';
import { scopeOf } from '#shared/data/scope';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { type Route, routes } from '#shared/routes';
import { handler as consume } from '../../functions/events/consume';
import { startEventStream } from '../../infra/local/event-stream';
import { startLambdaEndpoint } from '../../infra/local/lambda-endpoint';
import { createFeatureConfiguration, createOrganisation } from '../../infra/local/records';

export type SeededRoute =
  | { route: string; path: string; records: number }
  | { route: string; skipped: string };

// biome-ignore lint/suspicious/noExplicitAny: the seeder reads arbitrary members of response documents
type Doc = any;
type Caller = 'admin' | 'pc' | 'bot';
type Send = (as: Caller, method: string, path: string, body?: object, status?: number) => Promise<Doc>;

/** Ids by name (what the steps made, and the demo records found), the organisation and the callers. */
interface Ctx {
  org: string;
  ids: Record<string, string[]>;
  /** The signed-in admin user; the second user (the Principal Contractor); the service account. */
  me: string;
  pc: string;
  bot: string;
  send: Send;
}

/**
 * One kind of write, `count` times (30 by default): the route (its path's `{params}` from `params`,
 * `{org_id}` the organisation's unless given), the resource object it sends (`data`: its members; its
 * `type` is the route's resource type, or `type`) or a whole `body`, who sends it, and what a client does
 * next with the answer. The created ids go to `ids[into]` (by default the route's resource type), in order.
 */
interface Step {
  route: string;
  count?: number;
  as?: Caller | ((i: number) => Caller);
  params?: (i: number) => Record<string, string>;
  data?: (i: number) => Record<string, unknown>;
  type?: string;
  body?: (i: number) => object;
  /** Answers other than a create's 201 (a proposed change and an action answer 200, a job 202). */
  status?: number;
  /** One request at a time: each write replaces a parent they share (a pack's hazards, a plan's risks). */
  serial?: boolean;
  into?: string;
  /** What a client does before the requests (uploads files declared earlier). */
  before?: () => Promise<void>;
  /** What a client does next with an answer (uploads the file it declared and completes it). */
  finish?: (answer: Doc, i: number) => Promise<void>;
}

const N = 30;
const PARALLEL = 8;

// Words for realistic, distinct records: 30 Cumbrian towns (one per record), and shorter lists whose
// lengths are coprime, so that pairs of them do not repeat within 30.
// biome-ignore format: a word list
const TOWNS = ['Kendal', 'Windermere', 'Ambleside', 'Penrith', 'Keswick', 'Ulverston', 'Sedbergh', 'Kirkby Lonsdale', 'Grange-over-Sands', 'Appleby', 'Cockermouth', 'Whitehaven', 'Workington', 'Barrow', 'Carlisle', 'Shap', 'Staveley', 'Coniston', 'Hawkshead', 'Milnthorpe', 'Arnside', 'Dalton', 'Millom', 'Egremont', 'Maryport', 'Wigton', 'Brampton', 'Alston', 'Kirkby Stephen', 'Orton'] as const;
// biome-ignore format: a word list
const STREETS = ['High Street', 'Station Road', 'Mill Lane', 'Church Street', 'Market Place', 'Fell Road', 'Lake Road'] as const;
const FIRST = ['Aled', 'Bryony', 'Chidi', 'Deborah', 'Euan', 'Fatima', 'Grant'] as const;
const LAST = ['Hughes', 'Ibbotson', 'Jarvis', 'Khan', 'Lowther'] as const;
// biome-ignore format: a word list
const WORK = ['Trunk main renewal', 'Reservoir outlet works', 'Sewer rehabilitation', 'Pumping station upgrade', 'Service pipe replacement', 'Bridge deck waterproofing', 'Storm overflow screening'] as const;
// biome-ignore format: a word list
const OPERATIONS = ['Excavate and lay', 'Pressure test', 'Reinstate carriageway', 'Chlorinate and flush', 'Connect services'] as const;
// biome-ignore format: a table: manufacturer, model, category
const MODELS = [
  ['Hilti', 'TE 30-A36 rotary hammer', 'Drills'], ['Makita', 'DHR243 SDS+ drill', 'Drills'],
  ['Stihl', 'TS 420 cut-off saw', 'Cut-off saws'], ['Belle', 'PCX 450 plate compactor', 'Compaction'],
  ['Wacker Neuson', 'BS 60-2i rammer', 'Compaction'], ['Honda', 'WB30 water pump', 'Pumps'],
  ['Atlas Copco', 'XAS 58 compressor', 'Compressors'], ['DeWalt', 'DCD796 combi drill', 'Drills'],
  ['Radiodetection', 'RD8200 cable locator', 'Detection'], ['Crowcon', 'Gas-Pro 4-gas monitor', 'Gas detection'],
  ['Draeger', 'X-am 2500 gas monitor', 'Gas detection'], ['Leica', 'DD230 utility locator', 'Detection'],
  ['Husqvarna', 'K 770 power cutter', 'Cut-off saws'], ['JCB', '3CX backhoe loader', 'Excavators'],
  ['Kubota', 'KX057-5 excavator', 'Excavators'], ['Takeuchi', 'TB290 excavator', 'Excavators'],
  ['Thwaites', '6 t swivel dumper', 'Dumpers'], ['Altrad', 'RTX 3000 roller', 'Compaction'],
  ['Bosch', 'GBH 18V-26 SDS drill', 'Drills'], ['Milwaukee', 'M18 impact wrench', 'Power tools'],
  ['Trimble', 'R12i GNSS receiver', 'Surveying'], ['Topcon', 'GT-1200 total station', 'Surveying'],
  ['Genie', 'GS-1932 scissor lift', 'Access platforms'],
  // Vehicles: their specifications are written against these models.
  ['Ford', 'Transit Custom', 'Vans'], ['Vauxhall', 'Vivaro', 'Vans'], ['Toyota', 'Hilux', 'Pick-ups'],
  ['Isuzu', 'D-Max', 'Pick-ups'], ['Mercedes-Benz', 'Sprinter', 'Crew buses'], ['Volkswagen', 'Crafter', 'Vans'],
  ['Land Rover', 'Defender 110', 'Pick-ups'],
] as const;
const VEHICLE_MODELS = 23;
// biome-ignore format: a word list
const CATEGORIES = ['Drills', 'Cut-off saws', 'Compaction', 'Pumps', 'Compressors', 'Detection', 'Gas detection', 'Excavators', 'Dumpers', 'Power tools', 'Surveying', 'Access platforms', 'Vans', 'Pick-ups', 'Crew buses', 'Generators', 'Lighting towers', 'Trench shoring', 'Road barriers', 'Traffic signals', 'Breakers', 'Pipe cutters', 'Fusion welders', 'Chlorination kits', 'Confined space kits', 'Fall arrest', 'Pressure testers', 'Welfare units', 'Site cabins', 'Hand tools'] as const;
// biome-ignore format: a table: title, severity
const HAZARDS = [
  ['Excavation deeper than 1.2 m', 'high'], ['Live 11 kV cable in the footway', 'high'],
  ['Asbestos cement pipe offcuts', 'medium'], ['Confined space in the valve chamber', 'high'],
  ['Traffic on a 40 mph road', 'medium'], ['Overhead line across the access', 'high'],
  ['Contaminated ground near the old gasworks', 'medium'], ['Working next to open water', 'high'],
  ['Unstable spoil heap', 'low'], ['Public footpath through the compound', 'low'],
  ['Buried medium-pressure gas main', 'high'],
] as const;
// biome-ignore format: a word list
const CONTROLS = ['Trench box and edge protection', 'Permit to dig with CAT and Genny scan', 'Licensed removal and RPE', 'Gas monitoring and a rescue plan', 'Chapter 8 traffic management', 'Goalposts and a banksman', 'Soil testing and gloves', 'Life jackets and a throw line', 'Barriered walkway and signage'] as const;
// biome-ignore format: a word list
const PLAN_SECTIONS = ['health_and_safety_aims', 'site_rules', 'induction', 'welfare', 'emergency_arrangements', 'monitoring_and_review', 'key_operatives'] as const;
const RISK_LEVELS = ['low', 'medium', 'high'] as const;

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;
const town = (i: number) => pick(TOWNS, i);
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const two = (i: number) => String(i + 1).padStart(2, '0');
/** A moment `i` steps of `days` after `from`, at a varying hour: dates spread over months. */
const at = (i: number, days = 9, from = '2025-06-02T07:30:00Z') =>
  new Date(Date.parse(from) + (i * days * 24 + (i % 5) * 2) * 3_600_000).toISOString();
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
const one = (type: string, id: string) => ({ data: { type, id } });
const many = (type: string, ids: string[]) => ({ data: [...new Set(ids)].map((id) => ({ type, id })) });
const section = (text: string, items?: string[]) => ({ text, ...(items && { items }) });
/** A file's text and what a client declares of it: type, size and SHA-256. */
const declared = (text: string, content_type = 'text/plain') => ({
  content_type,
  size: Buffer.byteLength(text),
  checksum: sha256(text),
});

/** Runs `work` for 0…count-1, `limit` at a time. */
const inParallel = async (count: number, limit: number, work: (i: number) => Promise<void>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
};

class SeedError extends Error {}

const routeById = new Map<string, Route>(routes.map((r) => [r.id, r]));
const fill = (route: Route, params: Record<string, string>) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (!value) throw new SeedError(`${route.id}: no value for {${name}}`);
    return value;
  });

export const seedRoutes = async (api: {
  url: string;
  token: string;
  orgId: string;
}): Promise<SeededRoute[]> => {
  requireLocalStack(api.url);
  const headers: Record<Caller, Record<string, string>> = {
    admin: { 'x-session-token': api.token },
    pc: {},
    bot: {},
  };
  let requests = 0;
  const send: Send = async (as, method, path, body, status) => {
    requests++;
    const expected = status ?? (method === 'POST' ? 201 : 200);
    // A lost optimistic-concurrency race (409 "changed while this request was applied") is retried, as
    // a client retries it; any other unexpected answer stops the seeding with the request and answer.
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${api.url}${path}`, {
        method,
        headers: { ...headers[as], ...(body && { 'content-type': 'application/vnd.api+json' }) },
        ...(body && { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status === expected) return text ? JSON.parse(text) : null;
      if (res.status === 409 && attempt < 6 && /changed while|retry/i.test(text)) {
        await new Promise((r) => setTimeout(r, 25 * attempt + Math.random() * 50));
        continue;
      }
      throw new SeedError(
        `${method} ${path} as ${as} answered ${res.status}, not ${expected}\n  request: ${JSON.stringify(body)}\n  answer: ${text}`,
      );
    }
  };
  const log = (line: string) => process.stderr.write(`seed-routes: ${line}\n`);
  /** `SEED_ROUTES_TIMES=1` logs how long each step took. */
  const time = (line: string) => process.env.SEED_ROUTES_TIMES && log(line);
  const ctx: Ctx = { org: api.orgId, ids: {}, me: '', pc: '', bot: '', send };
  const run = async (step: Step) => {
    const route = routeById.get(step.route);
    if (!route) throw new SeedError(`no route ${step.route}`);
    const made: string[] = [];
    const started = performance.now();
    await step.before?.();
    await inParallel(step.count ?? N, step.serial ? 1 : PARALLEL, async (i) => {
      const as = typeof step.as === 'function' ? step.as(i) : (step.as ?? 'admin');
      const path = fill(route, { org_id: ctx.org, ...step.params?.(i) });
      const type = step.type ?? route.declared?.resource.type;
      const body = step.body?.(i) ?? (step.data ? { data: { type, ...step.data(i) } } : {});
      const answer = await send(as, route.method, path, body, step.status);
      if (typeof answer?.data?.id === 'string') made[i] = answer.data.id;
      await step.finish?.(answer, i);
    });
    time(`${step.route} ×${step.count ?? N}: ${(performance.now() - started).toFixed(0)} ms`);
    const into = step.into ?? step.type ?? route.declared?.resource.type ?? step.route;
    ctx.ids[into] = [...(ctx.ids[into] ?? []), ...made.filter(Boolean)];
  };

  // Events reach their consumers as in AWS (audit entries, job starts, webhook deliveries): the table's
  // stream, polled from its start, handed to the deployed consumer; jobs run on the local workers.
  const workers = await startLambdaEndpoint({
    env: process.env,
    port: Number(new URL(config.LAMBDA_ENDPOINT ?? '').port),
    log,
  });
  const stream = await startEventStream({
    endpoint: config.DYNAMODB_ENDPOINT ?? '',
    tableName,
    handler: consume,
    // A short pause between polls: the stream carries every item written (records, claims, counters,
    // events), 100 a batch, and only events are handed over.
    intervalMs: 10,
    log,
  });
  const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/northmere/events`;
  try {
    const streetWorks = await seedDirect(api);
    await findDemoRecords(ctx);
    ctx.me = (await send('admin', 'GET', '/v3/whoami')).data.id;
    // The second person: the Principal Contractor on the CDM schemes (the other party of each decision).
    ctx.pc = ctx.ids.users?.find((u) => u !== ctx.me) ?? '';
    await send('admin', 'POST', `/v3/orgs/${ctx.org}/iam/grants`, grant('admin', 'user', ctx.pc));
    headers.pc = { 'x-session-token': (await startSession(ctx.pc)).token };
    // An integration: a service account with a key, the admin role and a bearer token.
    await run(serviceAccounts);
    ctx.bot = id(ctx, 'service-accounts');
    const keys = `/v3/orgs/${ctx.org}/iam/service-accounts/${ctx.bot}/keys`;
    const key = await send('admin', 'POST', keys, {});
    await send('admin', 'POST', `/v3/orgs/${ctx.org}/iam/grants`, grant('admin', 'service_account', ctx.bot));
    headers.bot = { authorization: `Bearer ${await accessToken(api.url, key.data.attributes)}` };

    for (const step of [...jobSteps(ctx), ...steps(ctx, hookUrl), ...cdmSteps(ctx)]) await run(step);
    if (streetWorks) await deliverStreetWorks(streetWorks.prefix);
    const writes = performance.now();
    await stream.drain();
    time(`events handed over ${(performance.now() - writes).toFixed(0)} ms after the last write`);
    await finishJobs(ctx);
    time(`jobs finished ${(performance.now() - writes).toFixed(0)} ms after the last write`);
    // Other integrations' subscriptions last (half of them by the integration itself): no event after
    // them is one they take, so nothing is sent to their addresses (which do not resolve); and the
    // newest audit entries name both a user and a service account.
    await run(laterSubscriptions);
    await stream.drain();
    time(`${requests} requests`);
    return await seededPaths(ctx, streetWorks?.orgId ?? null);
  } finally {
    await stream.stop();
    await workers.stop();
    await new Promise<void>((done) => receiver.close(() => done()));
  }
};

const id = (c: Ctx, name: string, i = 0): string => {
  const list = c.ids[name];
  if (!list || list.length === 0) throw new SeedError(`no ${name} made before they were needed`);
  return pick(list, i);
};

/** What `seedRoutes` needs of the environment, said at once rather than as a failure half-way. */
const requireLocalStack = (url: string) => {
  const missing = [
    !config.S3_ENDPOINT && 'S3_ENDPOINT (documents, device backups and exports are files)',
    !config.LAMBDA_ENDPOINT && 'LAMBDA_ENDPOINT (a free loopback port for the job workers)',
    config.TOKEN_ISSUER !== url && `TOKEN_ISSUER=${url} (where the service account's token is verified)`,
    !config.LOCAL_SIGNING_KEY_FILE && 'LOCAL_SIGNING_KEY_FILE (signs that token)',
    !config.LOCAL_WEBHOOK_SECRETS_KEY_FILE && 'LOCAL_WEBHOOK_SECRETS_KEY_FILE (encrypts webhook secrets)',
    !config.WEBHOOK_ALLOW_LOOPBACK && 'WEBHOOK_ALLOW_LOOPBACK=true (deliveries go to a loopback receiver)',
  ].filter(Boolean);
  if (missing.length > 0) throw new SeedError(`seedRoutes needs the local stack: ${missing.join('; ')}`);
};

const grant = (role: string, grantee: 'user' | 'service_account' | 'team', id: string) => ({
  data: {
    type: 'grants',
    relationships: {
      role: one('roles', role),
      [grantee]: one(grantee === 'service_account' ? 'service-accounts' : `${grantee}s`, id),
    },
  },
});

const accessToken = async (url: string, key: { client_id: string; client_secret: string }) => {
  const res = await fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...key }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token)
    throw new SeedError(`POST /oauth2/token answered ${res.status}: ${JSON.stringify(body)}`);
  return body.access_token;
};

// biome-ignore format: a table: name, domain, component
const FEATURES = [
  ['Qualifications', 'people', 'qualifications'], ['Site attendance', 'field-work', 'site-attendances'],
  ['Dashboards', 'reporting', 'dashboards'], ['Scheduled reports', 'reporting', 'reports'],
  ['Notifications inbox', 'people', 'notifications'], ['Workflows', 'automation', 'workflows'],
  ['Forms', 'field-work', 'forms'], ['Document reviews', 'documents', 'document-reviews'],
  ['Images', 'documents', 'images'], ['Scheme shares', 'projects', 'scheme-shares'],
  ['Bridges', 'iam', 'bridges'], ['Invitations', 'people', 'invitations'], ['Actions', 'field-work', 'actions'],
  ['Equipment certifications', 'assets', 'equipment-certifications'],
  ['Vehicle allocations', 'assets', 'vehicle-allocations'], ['Location imports', 'places', 'location-imports'],
  ['Properties', 'places', 'properties'], ['Customer appointments', 'customers', 'customer-appointments'],
  ['Customer interactions', 'customers', 'customer-interactions'], ['Device backups', 'field-work', 'device-backups'],
  ['Exports', 'records', 'exports'], ['Webhooks', 'integrations', 'webhooks'],
  ['Audit log', 'records', 'audit-events'], ['Job roles', 'people', 'job-roles'],
] as const;
const ORGANISATION_KINDS = ['Water', 'Highways', 'Rail Civils', 'Wind Energy', 'Drainage Board'] as const;

/**
 * What no route creates, through the service's write functions, before the user's first request (so its
 * grants are read fresh): 29 more organisations the user holds a grant in (one of them the organisation
 * street-works references route to, when `STREET_WORKS_ORGANISATIONS` names one), feature
 * configurations and streets.
 */
const seedDirect = async (api: { token: string; orgId: string }) => {
  const user = /^sess_([^.]+)\./.exec(api.token)?.[1] ?? '';
  const [routing] = config.STREET_WORKS_ORGANISATIONS.split(',').filter((p) => p.includes('='));
  const [prefix = '', routed = ''] = routing?.split('=') ?? [];
  await inParallel(N - 1, PARALLEL, async (i) => {
    const kind = pick(ORGANISATION_KINDS, i);
    const name = `${TOWNS[(i + 1) % N]} ${kind}${i % 4 === 3 ? ' Ltd' : ''}`;
    const routes = i === 0 && routed !== '';
    const organisation = await createOrganisation(
      { name, slug: slug(name), description: `${kind} partner of Northmere Water Services.` },
      undefined,
      routes ? routed : undefined,
    );
    const role = routes ? 'admin' : 'viewer';
    // A bridge, with the held-grant item permissions are read from; the user's record lives in the
    // demo organisation, so no name is kept on it here.
    const bridge = grantWrites(grantRecord(organisation.id, { role, user })).filter((op) => !('keep' in op));
    await commit(scopeOf([organisation.id]), bridge);
  });
  await inParallel(FEATURES.length, PARALLEL, async (i) => {
    const [name, domain, component] = FEATURES[i] ?? ['', '', ''];
    await createFeatureConfiguration(api.orgId, { name, domain, component, enabled: i % 3 !== 2 });
  });
  await inParallel(N - 3, PARALLEL, async (i) => {
    const street = newRecord(streets, api.orgId, {
      attributes: { name: pick(STREETS, i + 3), usrn: String(10_070_000 + i * 13), town: town(i + 3) },
    });
    await commit(scopeOf([api.orgId]), [{ create: street }]);
  });
  return routed ? { prefix, orgId: routed } : null;
};

/** The demo data's records the seeded ones hang off, found as a client finds them. */
const findDemoRecords = async (c: Ctx) => {
  const o = `/v3/orgs/${c.org}`;
  const ids = async (path: string) =>
    ((await c.send('admin', 'GET', path)).data as { id: string }[]).map((r) => r.id);
  const teams = await c.send('admin', 'GET', `${o}/people/teams?include=members`);
  c.ids.users = [...new Set((teams.included as { id: string }[]).map((u) => u.id))].sort();
  c.ids.streets = await ids('/v3/governance/streets?page[limit]=100');
  c.ids.permissions = await ids('/v3/iam/permissions?page[limit]=100');
  c.ids['demo-contracts'] = await ids(`${o}/projects/scheme-contracts`);
  c.ids['demo-schemes'] = await ids(`${o}/projects/schemes`);
  c.ids['demo-work-orders'] = await ids(`${o}/projects/work-orders`);
};

/** Uploads a file to a presigned URL (`meta.upload` of the answer that declared it), as a client does. */
const upload = async (put: Doc, text: string) => {
  const res = await fetch(put.url, { method: put.method ?? 'PUT', headers: put.headers, body: text });
  if (res.status !== 200) throw new SeedError(`PUT ${put.url} answered ${res.status}: ${await res.text()}`);
};

/** Uploads the file, then completes it (`complete`: the completion's path). */
const uploadThen = async (c: Ctx, put: Doc, text: string, complete: string) => {
  await upload(put, text);
  await c.send('admin', 'POST', complete, {}, 200);
};

const INTEGRATIONS = [
  'asset register sync',
  'GIS feed',
  'payroll export',
  'telematics',
  'ERP bridge',
] as const;
const serviceAccounts: Step = {
  route: 'createServiceAccount',
  data: (i) => ({
    attributes: {
      name: i === 0 ? 'SCADA telemetry bridge' : `${town(i)} ${pick(INTEGRATIONS, i)}`,
      description: `Integration for the ${town(i)} area.`,
      enabled: i % 7 !== 6,
    },
  }),
};

/**
 * Jobs first, so that their workers run while the rest is written: small exports are written at once;
 * roll-up exports (of the demo's costed contract, a scheme or a work order) and imports over 64 KiB are
 * jobs (202).
 */
const jobSteps = (c: Ctx): Step[] => {
  const ids = (name: string, i = 0) => id(c, name, i);
  const rollUp = (i: number) => {
    const [type, node] = pick(
      [
        ['scheme-contracts', ids('demo-contracts')],
        ['schemes', ids('demo-schemes', i)],
        ['work-orders', ids('demo-work-orders', i)],
      ] as const,
      i,
    );
    const depth = i % 4 === 3 ? '' : ',eq(depth,all)';
    return `and(eq(organisation,${c.org}),eq(cost_centre,${node}),eq(cost_centre_type,${type})${depth})`;
  };
  // Long rows (site access notes), so that 150 of them pass 64 KiB. Each survey has its own sites: two
  // imports of the same references running at once would race (see the issue 19 report).
  const access = 'no vehicles over 7.5 t on the approach; ring the site manager before arriving. '.repeat(4);
  const survey = (i: number) =>
    [
      'reference,name,address,latitude,longitude',
      ...Array.from(
        { length: 150 },
        (_, k) =>
          `NW-SV${two(i)}-${String(k + 1).padStart(3, '0')},"${town(k)} site ${k + 1}","Access from ${pick(STREETS, k)}; key safe code held by the control room; gate locked 18:00-07:00; ${access}",${(54.2 + (k % 40) / 100).toFixed(3)},${(-2.9 + (k % 25) / 50).toFixed(3)}`,
      ),
    ].join('\n');
  // biome-ignore format: a word list
  const subjects = ['equipment', 'vehicles', 'schemes', 'work-orders', 'operations', 'locations', 'customer-contacts', 'audit-events'];
  return [
    {
      route: 'createExport',
      count: 10,
      data: (i) => ({ attributes: { subject_type: pick(subjects, i), format: i % 2 ? 'json' : 'csv' } }),
    },
    {
      route: 'createExport',
      count: 25,
      status: 202,
      into: 'jobs',
      data: (i) => ({
        attributes: {
          subject_type: 'cost-rollups',
          format: i % 3 ? 'csv' : 'json',
          filters: { filter: rollUp(i) },
        },
      }),
    },
    {
      route: 'createLocationImport',
      count: 5,
      status: 202,
      into: 'jobs',
      data: (i) => ({ attributes: { csv: survey(i), file_name: `site-survey-${two(i)}.csv` } }),
    },
  ];
};

// biome-ignore format: a word list
const TITLES = ['Site supervisor', 'Plant operator', 'Street works coordinator', 'Civil engineer', 'Quantity surveyor', 'Traffic management operative', 'Network technician', 'CDM coordinator', 'Fleet manager', 'Asset inspector', 'Water quality scientist', 'Pipe layer', 'Ganger', 'Design engineer', 'Health and safety advisor'] as const;
const COLUMNS = [
  { reference: 'Site Code', name: 'Site Name', address: 'Address', latitude: 'Lat', longitude: 'Long' },
  { reference: 'Asset ID', name: 'Description', latitude: 'Northing (lat)', longitude: 'Easting (lon)' },
  { reference: 'Ref', name: 'Name', address: 'Postal address' },
] as const;

/** IAM and people, assets, places, the work hierarchy, costs, customers, agents, comments, files. */
const steps = (c: Ctx, hookUrl: string): Step[] => {
  const ids = (name: string, i = 0) => id(c, name, i);
  const user = (i: number) => ids('users', i);
  const title = (i: number) => `${i >= 15 ? 'Senior ' : ''}${pick(TITLES, i)}`;
  const documentText = (i: number, version = 1) =>
    `${pick(WORK, i)}, ${town(i)}: ${pick(['method statement', 'risk assessment', 'drawing register'], i)} revision ${version}.`;
  const backup = (i: number) => `SQLite format 3\u0000 field records of tablet ${two(i)}`;
  const letters = (i: number) =>
    [7, 11, 5].map((k, n) => String.fromCharCode(65 + ((i * k + n * 9) % 26))).join('');
  const importCsv = (i: number) => {
    const header: string[] =
      i % 2 === 0
        ? Object.values(pick(COLUMNS, i))
        : ['reference', 'name', 'address', 'latitude', 'longitude'];
    const row = (k: number) =>
      [
        `NW-IMP-${two(i)}-${k + 1}`,
        `${town(i + k)} ${pick(['chamber', 'hydrant', 'washout', 'air valve'], k)}`,
        `${pick(STREETS, k + i)}, ${town(i + k)}`,
        (54.1 + k * 0.01).toFixed(4),
        (-2.8 - k * 0.01).toFixed(4),
      ].slice(0, header.length);
    const rows = [header, ...Array.from({ length: 2 + (i % 3) }, (_, k) => row(k))];
    return rows.map((r) => r.map((v) => `"${v}"`).join(',')).join('\n');
  };
  const vehicleModel = (i: number) => VEHICLE_MODELS + (i % 7);
  const versionUploads: Doc[] = [];
  return [
    // IAM and people: keys (at most 10 per account, three disabled), roles, groups, teams, grants.
    {
      route: 'createServiceAccountKey',
      count: 9,
      serial: true,
      params: () => ({ service_account_id: c.bot }),
    },
    {
      route: 'updateServiceAccountKey',
      count: 3,
      type: 'service-account-keys',
      into: 'disabled-keys',
      params: (i) => ({ service_account_id: c.bot, key_id: ids('createServiceAccountKey', i * 3 + 1) }),
      data: (i) => ({ id: ids('createServiceAccountKey', i * 3 + 1), attributes: { enabled: false } }),
    },
    {
      route: 'createRole',
      data: (i) => ({
        attributes: {
          name: `${pick(['Site', 'Fleet', 'Records', 'Costs', 'CDM', 'Customer', 'Documents'], i)} ${pick(['viewer', 'editor', 'approver', 'auditor', 'coordinator'], i)}`,
          description: `Custom role for ${town(i)} staff.`,
          permissions: (c.ids.permissions ?? []).filter((_, k) => k % 11 === i % 11).slice(0, 2 + (i % 4)),
        },
      }),
    },
    {
      route: 'createRoleGroup',
      data: (i) => ({
        attributes: {
          name: `${pick(['Framework', 'Depot', 'Regional', 'Project', 'Night-shift', 'Emergency', 'Apprentice'], i)} ${pick(['contractors', 'supervisors', 'office staff', 'engineers', 'operatives'], i)}`,
        },
        relationships: { roles: many('roles', [ids('roles', i), ids('roles', i + 7), 'viewer']) },
      }),
    },
    {
      // One at a time: a team's transaction appends it to each member's principal.
      route: 'createTeam',
      serial: true,
      data: (i) => ({
        attributes: {
          name: `${town(i)} ${pick(['mains gang', 'reservoir crew', 'street works', 'survey team', 'plant operators', 'SHEQ'], i)}`,
          description: `Covers ${town(i)} and the villages around it.`,
        },
        relationships: {
          members: many('users', [user(i + 1), user(i + 3), user(i % 3 === 0 ? i + 4 : i + 1)]),
        },
      }),
    },
    {
      // To teams, service accounts and people, of a custom role or a role group.
      route: 'createGrant',
      data: (i) => ({
        relationships: {
          ...(i % 2 === 0
            ? { role: one('roles', ids('roles', i)) }
            : { role_group: one('role-groups', ids('role-groups', i)) }),
          ...(i % 3 === 0
            ? { team: one('teams', ids('teams', i)) }
            : i % 3 === 1
              ? { service_account: one('service-accounts', ids('service-accounts', i)) }
              : { user: one('users', user(1 + (i % 5))) }),
        },
      }),
    },
    {
      route: 'createSsoProvider',
      data: (i) => ({
        attributes: {
          name: `${pick(['Entra ID', 'Okta', 'Google Workspace', 'Ping Identity', 'OneLogin'], i)} (${town(i)})`,
          metadata: `https://login.${slug(town(i))}.northmere-water.example/.well-known/openid-configuration`,
          enforce: i % 5 === 0,
        },
        relationships: {
          organisation: one('organisations', c.org),
          ...(i % 2 === 0 && { default_role: one('roles', ids('roles', i)) }),
        },
      }),
    },
    {
      route: 'createJobRole',
      data: (i) => ({
        attributes: {
          name: title(i),
          code: `${title(i).replace(/[^A-Z]/g, '')}-${two(i)}`,
          description: `${title(i)} on capital and maintenance work.`,
        },
      }),
    },

    // Assets: manufacturer → model → specification → vehicle → equipment → inventory check.
    {
      route: 'createEquipmentManufacturer',
      data: (i) => ({
        attributes: { name: pick(MODELS, i)[0], website: `https://www.${slug(pick(MODELS, i)[0])}.example` },
      }),
    },
    { route: 'createEquipmentCategory', data: (i) => ({ attributes: { name: pick(CATEGORIES, i) } }) },
    {
      route: 'createEquipmentModel',
      data: (i) => ({
        attributes: { name: pick(MODELS, i)[1] },
        relationships: {
          manufacturer: one('equipment-manufacturers', ids('equipment-manufacturers', i)),
          categories: many('equipment-categories', [
            ids('equipment-categories', CATEGORIES.indexOf(pick(MODELS, i)[2])),
            ids('equipment-categories', i + 15),
          ]),
        },
      }),
    },
    {
      route: 'createVehicleSpecification',
      data: (i) => ({
        attributes: {
          name: `${pick(MODELS, vehicleModel(i))[1]} ${pick(['crew van', 'welfare van', 'tipper', 'dropside', 'jetting unit'], i)}`,
          fuel_type: pick(['diesel', 'electric', 'hybrid', 'diesel', 'petrol'], i),
          seats: pick([2, 3, 6, 7, 9], i),
        },
        relationships: { model: one('equipment-models', ids('equipment-models', vehicleModel(i))) },
      }),
    },
    {
      route: 'createVehicle',
      data: (i) => ({
        attributes: {
          registration: `${pick(['PN', 'PO', 'SM', 'NX', 'YJ', 'KX'], i)}${18 + (i % 7)} ${letters(i)}`,
          name: `${town(i)} ${pick(['gang van', 'pick-up', 'welfare van', 'tipper'], i)}`,
          make: pick(MODELS, vehicleModel(i))[0],
          model_name: pick(MODELS, vehicleModel(i))[1],
          colour: pick(['white', 'silver', 'blue', 'white', 'yellow'], i),
          year: 2018 + (i % 7),
          status: pick(['active', 'active', 'in_service', 'off_road', 'active', 'disposed'], i),
        },
        relationships: {
          specification: one('vehicle-specifications', ids('vehicle-specifications', i)),
          user: one('users', user(i)),
        },
      }),
    },
    {
      route: 'createEquipment',
      data: (i) => ({
        attributes: {
          serial: `${pick(MODELS, i)[0].slice(0, 3).toUpperCase()}-${2024_0000 + i * 131}`,
          asset_number: `NW-A-${1000 + i * 7}`,
          description: `${pick(MODELS, i)[1]}, kept on the ${town(i)} van`,
          purchased_at: at(i, 11, '2022-03-01T09:00:00Z'),
          is_rented: i % 6 === 5,
          status: pick(['active', 'active', 'in_repair', 'active', 'retired'], i),
          vibration_source: i % 3 === 0,
          ...(i % 3 === 0 && { vibration_magnitude: 4 + (i % 7) }),
        },
        relationships: {
          model: one('equipment-models', ids('equipment-models', i % VEHICLE_MODELS)),
          vehicle: one('vehicles', ids('vehicles', i)),
        },
      }),
    },
    {
      route: 'createVehicleInventoryCheck',
      data: (i) => ({
        attributes: {
          inspected_at: at(i, 6, '2025-07-07T06:45:00Z'),
          items: [
            {
              equipment_id: ids('equipment-items', i),
              present: i % 9 !== 4,
              working: i % 5 !== 2,
              certified: i % 4 !== 3,
            },
          ],
        },
        relationships: { vehicle: one('vehicles', ids('vehicles', i)) },
      }),
    },

    // Places; some locations made by the integration (audit entries name a service account).
    {
      route: 'createLocation',
      as: (i) => (i % 5 === 4 ? 'bot' : 'admin'),
      data: (i) => ({
        attributes: {
          name: `${town(i)} ${pick(['depot', 'pumping station', 'service reservoir', 'treatment works', 'valve house', 'compound'], i)}`,
          reference: `NW-LOC-${two(i)}`,
          address: `${1 + ((i * 7) % 90)} ${pick(STREETS, i)}, ${town(i)}, Cumbria`,
          location: { latitude: 54.05 + (i % 10) * 0.09, longitude: -3.4 + Math.floor(i / 10) * 0.45 },
        },
      }),
    },
    // Qualifications and site attendance (issue 22): types (every fourth an induction to a location),
    // specifications combining them, awards, each location's settings, and visitors on one site.
    {
      route: 'createQualificationType',
      data: (i) => ({
        attributes: {
          kind: pick(['induction', 'training', 'assessment', 'registration'], i),
          name: `${town(i)} ${pick(['induction', 'first aid', 'confined space', 'CSCS card'], i)}`,
          code: `QT-${two(i)}`,
          has_expiry: true,
          validity_period: pick(['P1Y', 'P3Y', 'P5Y'], i),
        },
        ...(i % 4 === 0 && { relationships: { locations: many('locations', [ids('locations', i)]) } }),
      }),
    },
    {
      route: 'createQualificationSpecification',
      data: (i) => ({
        attributes: {
          name: `${town(i)} ${pick(['operative', 'supervisor', 'visitor escort'], i)}`,
          code: `QS-${two(i)}`,
          rule: {
            all_of: [
              { qualification_type: ids('qualification-types', i) },
              {
                any_of: [
                  { qualification_type: ids('qualification-types', i + 1) },
                  { qualification_type: ids('qualification-types', i + 2) },
                ],
              },
            ],
          },
        },
      }),
    },
    {
      route: 'createQualificationAward',
      data: (i) => ({
        attributes: { issued_at: `2026-0${1 + (i % 9)}-1${i % 10}`, number: `CARD-${two(i)}` },
        relationships: {
          person: one('users', user(i)),
          qualification_type: one('qualification-types', ids('qualification-types', i)),
        },
      }),
    },
    {
      route: 'createSiteSetting',
      data: (i) => ({
        attributes: {
          closing_time: pick(['17:00', '18:00', '19:30'], i),
          missing_qualification: pick(['warn', 'refuse'], i),
        },
        relationships: {
          location: one('locations', ids('locations', i)),
          required_specification: one('qualification-specifications', ids('qualification-specifications', i)),
        },
      }),
    },
    {
      route: 'createSiteAttendance',
      data: (i) => ({
        attributes: {
          method_in: pick(['kiosk', 'qr', 'manual'], i),
          attendee_kind: 'visitor',
          guest: { name: `${pick(FIRST, i)} ${pick(LAST, i)}`, company: `${town(i)} Surveys` },
        },
        relationships: { location: one('locations', ids('locations', 0)) },
      }),
    },
    {
      route: 'createProperty',
      count: 10,
      data: (i) => ({
        attributes: {
          name: `${2 + i * 3} ${pick(STREETS, i + 3)}, ${town(i + 3)}`,
          uprn: String(100_110_000_000 + i * 4_177),
          postcode: `LA${(i % 9) + 1} ${(i % 9) + 1}${pick(['AB', 'DQ', 'HT', 'NW', 'RS'], i)}`,
          location: { latitude: 54.33 + (i % 4) * 0.003, longitude: -2.75 + i * 0.002 },
        },
        relationships: { street: one('streets', ids('streets', i + 3)) },
      }),
    },
    {
      route: 'createImportTemplate',
      data: (i) => ({
        attributes: {
          name: `${town(i)} ${pick(['council site list', 'asset register extract', 'contractor compounds'], i)}`,
          target: 'locations',
          columns: pick(COLUMNS, i),
        },
      }),
    },
    {
      // Small files, imported within the request; the even ones through a template of their columns.
      route: 'createLocationImport',
      data: (i) => ({
        attributes: { csv: importCsv(i), file_name: `${slug(town(i))}-sites-${at(i).slice(0, 10)}.csv` },
        ...(i % 2 === 0 && {
          relationships: { import_template: one('import-templates', ids('import-templates', i)) },
        }),
      }),
    },

    // The work hierarchy.
    {
      route: 'createSchemeContract',
      data: (i) => ({
        attributes: {
          name: `${town(i)} ${pick(['framework', 'capital programme', 'maintenance term', 'AMP8 region'], i)}`,
          code: `NW-C${two(i)}`,
          description: `Contract for work in and around ${town(i)}.`,
        },
      }),
    },
    {
      route: 'createScheme',
      data: (i) => ({
        attributes: {
          name: `${pick(WORK, i)}, ${town(i)}`,
          code: `NW-S${two(i)}`,
          description: `${pick(WORK, i)} along ${pick(STREETS, i)}, ${town(i)}.`,
          dates: {
            anticipated: { start: at(i, 12, '2025-09-01T08:00:00Z'), end: at(i, 12, '2026-03-01T17:00:00Z') },
          },
          labels: [{ key: 'programme', value: pick(['AMP8', 'Resilience', 'Growth'], i) }],
        },
        relationships: {
          contracts: many('scheme-contracts', [ids('scheme-contracts', i)]),
          site_managers: many('users', [user(i)]),
          assignees: many('users', [user(i + 1), user(i + 3)]),
          teams: many('teams', [ids('teams', i)]),
          locations: many('locations', [ids('locations', i)]),
        },
      }),
    },
    {
      // Named "Section …": GET …/projects/search?filter[prefix]=section finds them (and the demo's).
      route: 'createWorkOrder',
      data: (i) => ({
        attributes: {
          name: `Section ${'ABCD'[i % 4]}, ${pick(STREETS, i)}, ${town(i)}`,
          code: `NW-S${two(i)}-W1`,
          status: pick(['todo', 'in_progress', 'done', 'in_progress'], i),
        },
        relationships: { scheme: one('schemes', ids('schemes', i)) },
      }),
    },
    {
      route: 'createOperation',
      data: (i) => ({
        attributes: {
          name: `${pick(OPERATIONS, i)}, ${town(i)}`,
          status: pick(['todo', 'in_progress', 'done'], i),
          ...(i % 3 === 2 && { done_reason: pick(['completed', 'completed', 'aborted'], i) }),
        },
        relationships: { work_order: one('work-orders', ids('work-orders', i)) },
      }),
    },
    // A vehicle's history: 26 edits and 4 allocations, each an audit entry once the stream hands it over.
    {
      route: 'updateVehicle',
      count: 26,
      serial: true,
      into: 'vehicle-edits',
      params: () => ({ vehicle_id: ids('vehicles') }),
      data: (i) => ({
        id: ids('vehicles'),
        attributes: {
          colour: pick(['white', 'silver', 'blue', 'red', 'yellow'], i),
          status: pick(['active', 'in_service', 'active', 'off_road'], i),
          name: `Kendal gang van (${pick(['service due', 'MOT booked', 'tyres replaced', 'tracker fitted', 'racking fitted'], i)} ${at(i, 4).slice(0, 10)})`,
        },
      }),
    },
    ...(
      [
        ['allocateVehicleToLocation', 'locations', 'locations'],
        ['allocateVehicleToScheme', 'schemes', 'schemes'],
        ['allocateVehicleToWorkOrder', 'work-orders', 'work-orders'],
        ['allocateVehicleToPerson', 'users', 'users'],
      ] as const
    ).map(
      ([route, type, name], n): Step => ({
        route,
        count: 1,
        into: 'allocations',
        params: () => ({ vehicle_id: ids('vehicles') }),
        body: () => ({
          data: { type, id: ids(name, n + 1) },
          meta: { starts_at: at(n, 14, '2025-10-01T07:00:00Z') },
        }),
      }),
    ),

    // Costs: rate codes with a rate each (the first with a new rate every month), sheets and lines.
    {
      route: 'createRateCode',
      data: (i) => {
        const category = pick(['labour', 'material', 'contractor', 'misc'] as const, i);
        const names = {
          labour: ['Gang day', 'Supervisor hour'],
          material: ['DI pipe 150 mm per m', 'Type 1 sub-base per t'],
          contractor: ['Traffic management day', 'Tanker hire day'],
          misc: ['Skip hire', 'Welfare unit week'],
        };
        return {
          attributes: {
            code: `${category.slice(0, 3).toUpperCase()}-${100 + i * 3}`,
            name: `${pick(names[category], i)}, ${town(i)}`,
            category,
            unit: pick(['day', 'hour', 'm', 't', 'each'], i),
          },
        };
      },
    },
    {
      route: 'createRateCodeVersion',
      type: 'rate-code-versions',
      params: (i) => ({ rate_code_id: ids('rate-codes', i) }),
      data: (i) => rate(i, '2025-01-01T00:00:00Z'),
    },
    {
      route: 'createRateCodeVersion',
      count: N - 1,
      serial: true,
      type: 'rate-code-versions',
      params: () => ({ rate_code_id: ids('rate-codes') }),
      data: (i) => rate(i + 1, at(i + 1, 30, '2025-01-01T00:00:00Z')),
    },
    {
      route: 'createCostSheet',
      data: (i) => ({
        attributes: {
          name: `Section ${'ABCD'[i % 4]} costs, ${town(i)}`,
          status: pick(['quoted', 'approved', 'completed'], i),
        },
        relationships: { work_order: one('work-orders', ids('work-orders', i)) },
      }),
    },
    {
      route: 'createCostLine',
      type: 'cost-lines',
      params: (i) => ({ cost_sheet_id: ids('cost-sheets', i) }),
      data: (i) => ({
        attributes: {
          kind: i % 4 === 3 ? 'estimate' : 'actual',
          description: `${pick(OPERATIONS, i)}, ${town(i)}`,
          quantity: 1 + ((i * 7) % 40) / 2,
          at: at(i, 7, '2025-06-03T12:00:00Z'),
        },
        relationships: { rate_code: one('rate-codes', ids('rate-codes', i)) },
      }),
    },

    // Customers, their events delivered to a CRM's webhook (the receiver on loopback).
    {
      route: 'createWebhookSubscription',
      count: 1,
      into: 'hooks',
      data: () => ({
        attributes: {
          url: hookUrl,
          event_types: [
            'customer-contact.created',
            'customer-interaction.created',
            'customer-appointment.created',
          ],
          description: 'Customer care CRM',
        },
      }),
    },
    {
      route: 'createCustomerAccount',
      data: (i) => {
        const kind = pick(['domestic', 'domestic', 'commercial', 'public'], i);
        const place =
          kind === 'public'
            ? ['Primary School', 'Health Centre', 'Library']
            : ['Creamery', 'Hotel', 'Brewery'];
        return {
          attributes: {
            name:
              kind === 'domestic'
                ? `${3 + i * 2} ${pick(STREETS, i)}, ${town(i)}`
                : `${town(i)} ${pick(place, i)}`,
            reference: `ACC-${700_100 + i * 17}`,
            kind,
          },
        };
      },
    },
    {
      route: 'createCustomerContact',
      data: (i) => ({
        attributes: {
          association: pick(['occupier', 'owner', 'tenant', 'landlord', 'agent', 'other'], i),
          salutation: pick(['Mr', 'Mrs', 'Ms', 'Dr', 'Mx', 'Miss', 'Prof'], i),
          first_name: pick(FIRST, i),
          last_name: pick(LAST, i),
          email: `${pick(FIRST, i)}.${pick(LAST, i)}${i}@mail.example`.toLowerCase(),
          telephone: `01539 ${720_000 + i * 317}`,
        },
        relationships: {
          accounts: many('customer-accounts', [
            ids('customer-accounts', i),
            ids('customer-accounts', i % 4 ? i : i + 1),
          ]),
        },
      }),
    },
    {
      route: 'createCustomerInteraction',
      data: (i) => ({
        attributes: {
          channel: pick(['phone', 'email', 'visit', 'letter', 'sms'], i),
          direction: i % 3 === 0 ? 'outbound' : 'inbound',
          occurred_at: at(i, 5, '2025-08-04T09:15:00Z'),
          summary: `${pick(['Asked when the road reopens', 'Reported low water pressure', 'Complained about noise before 8 am', 'Asked for an interruption notice', 'Reported a leak in the footway'], i)} (${pick(STREETS, i)}, ${town(i)}).`,
          outcome: pick(
            ['Explained the programme', 'Engineer visit booked', 'Passed to the site manager', 'Letter sent'],
            i,
          ),
        },
        relationships: {
          contact: one('customer-contacts', ids('customer-contacts', i)),
          account: one('customer-accounts', ids('customer-accounts', i)),
        },
      }),
    },
    {
      route: 'createCustomerAppointment',
      data: (i) => ({
        attributes: {
          starts_at: at(i, 3, '2025-10-06T09:00:00Z'),
          ends_at: at(i, 3, '2025-10-06T10:00:00Z'),
          purpose: pick(
            ['Internal stop tap survey', 'Meter exchange', 'Pressure logging', 'Lead pipe inspection'],
            i,
          ),
          location: `${3 + i * 2} ${pick(STREETS, i)}, ${town(i)}`,
          status: pick(['scheduled', 'completed', 'scheduled', 'cancelled', 'no_show'], i),
        },
        relationships: {
          contact: one('customer-contacts', ids('customer-contacts', i)),
          account: one('customer-accounts', ids('customer-accounts', i)),
          assignee: one('users', user(i)),
        },
      }),
    },

    // Agents, and one agent's briefings (every third archived).
    {
      route: 'createAgent',
      data: (i) => ({
        attributes: {
          name: `${pick(['CDM', 'Fleet', 'Street works', 'Customer care', 'Cost', 'Document'], i)} ${pick(['adviser', 'reviewer', 'analyst', 'assistant', 'auditor'], i)}`,
          description: `Reads ${town(i)} records overnight.`,
          persona:
            'You review the records of a UK water utility and point out gaps, risks and overdue actions.',
          model: pick(['example-large-2025', 'example-small-2025'], i),
          enabled: i % 6 !== 5,
        },
      }),
    },
    {
      route: 'createBriefing',
      params: () => ({ agent_id: ids('agents') }),
      data: (i) => ({
        attributes: {
          summary: `${1 + (i % 4)} items need attention on ${pick(WORK, i).toLowerCase()}, ${town(i)}.`,
          sections: [
            {
              title: 'Key risks',
              items: [{ text: pick(HAZARDS, i)[0], severity: pick(['red', 'amber', 'green'], i) }],
              reasoning: 'Cross-checked against the pre-construction information.',
            },
          ],
          reasoning: { approach: 'cross-check', sources: ['pre-construction-information', 'site-hazards'] },
          model_used: 'example-large-2025',
          token_usage: { prompt_tokens: 1800 + i * 37, completion_tokens: 240 + i * 11 },
        },
      }),
    },
    {
      route: 'updateBriefing',
      count: 10,
      into: 'archived-briefings',
      params: (i) => ({ briefing_id: ids('briefings', i * 3) }),
      data: (i) => ({ id: ids('briefings', i * 3), attributes: { status: 'archived' } }),
    },

    // A scheme's comments, from the admin and from the integration.
    {
      route: 'createComment',
      as: (i) => (i % 3 === 2 ? 'bot' : 'admin'),
      data: (i) => ({
        attributes: {
          body: `${pick(['Traffic management booked for', 'Permit conditions checked on', 'Valve chamber inspected on', 'Residents letter sent on', 'Telemetry alarm cleared on'], i)} ${at(i, 2).slice(0, 10)}.`,
          subject: { type: 'schemes', id: ids('schemes') },
        },
      }),
    },

    // Folders (six roots, one per scheme, with four subfolders each), a root's documents (one in ten never
    // uploaded) and a document's versions: each file uploaded to its presigned URL, then completed.
    {
      route: 'createFolder',
      count: 6,
      into: 'root-folders',
      data: (i) => ({
        attributes: { name: `${pick(WORK, i)}, ${town(i)}` },
        relationships: { scheme: one('schemes', ids('schemes', i)) },
      }),
    },
    {
      route: 'createFolder',
      count: 24,
      into: 'sub-folders',
      data: (i) => ({
        attributes: {
          name: pick(['Drawings', 'Method statements', 'Permits', 'Photographs'], Math.floor(i / 6)),
        },
        relationships: { parent: one('folders', ids('root-folders', i)) },
      }),
    },
    {
      route: 'createDocument',
      params: () => ({ folder_id: ids('root-folders') }),
      data: (i) => ({
        attributes: {
          name: `${pick(['Method statement', 'Risk assessment', 'Drawing register'], i)} ${town(i)}.txt`,
          ...declared(documentText(i)),
        },
      }),
      finish: async (answer, i) => {
        if (i % 10 === 9) return;
        const upload = answer.data.meta.upload;
        await uploadThen(c, upload, documentText(i), `/v3/document-versions/${upload.version}/complete`);
      },
    },
    {
      // Declared one at a time (each is the document's next number), uploaded all at once, then completed
      // in order: the newest is the current one.
      route: 'createDocumentVersion',
      count: N - 1,
      serial: true,
      params: () => ({ document_id: ids('documents') }),
      data: (i) => ({ attributes: declared(documentText(0, i + 2)) }),
      finish: async (answer, i) => {
        versionUploads[i] = answer.data.meta.upload;
      },
    },
    {
      route: 'completeDocumentVersion',
      count: N - 1,
      serial: true,
      status: 200,
      into: 'completed-versions',
      before: () => inParallel(N - 1, PARALLEL, (i) => upload(versionUploads[i], documentText(0, i + 2))),
      params: (i) => ({ version_id: ids('document-versions', i) }),
    },

    // Device backups: asked of a person's tablet, then uploaded and completed by it (one in eight not).
    {
      route: 'createDeviceBackupRequest',
      data: (i) => ({
        attributes: { device: `tablet-${two(i)}`, note: `Before the ${town(i)} tablet is re-imaged.` },
        relationships: { user: one('users', user(i)) },
      }),
    },
    {
      route: 'createDeviceBackup',
      data: (i) => ({
        attributes: { device: `tablet-${two(i)}`, ...declared(backup(i), 'application/vnd.sqlite3') },
        relationships: {
          request: one('device-backup-requests', ids('device-backup-requests', i)),
          user: one('users', user(i)),
        },
      }),
      finish: async (answer, i) => {
        if (i % 8 === 7) return;
        await uploadThen(
          c,
          answer.data.meta.upload,
          backup(i),
          `/v3/device-backups/${answer.data.id}/complete`,
        );
      },
    },
  ];
};

const rate = (i: number, validFrom: string) => ({
  attributes: {
    valid_from: validFrom,
    cost: { amount: 8_000 + i * 250, currency: 'GBP' },
    charge: { amount: 10_000 + i * 310, currency: 'GBP' },
  },
});

/**
 * CDM 2015 on every seeded scheme: the admin appoints itself Client and the second person Principal
 * Contractor; the Client writes the pack and a hazard, the Principal Contractor the plan and a risk.
 * The first scheme gets the full record: 30 appointments (three ended), 30 hazards, a complete plan with
 * 30 risks, handed over, then 30 hazard proposals and 30 proposed changes, some of each decided.
 */
const cdmSteps = (c: Ctx): Step[] => {
  const ids = (name: string, i = 0) => id(c, name, i);
  const scheme = (i: number) => ({ scheme_id: ids('schemes', i) });
  const pack = () => ({ pre_construction_information_id: ids('pre-construction-information') });
  const plan = () => ({ construction_phase_plan_id: ids('construction-phase-plans') });
  const appoint = (role: string, notes: string, relationships: object) => ({
    attributes: { role, notes },
    relationships,
  });
  const hazard = (i: number) => ({
    attributes: {
      title: `${pick(HAZARDS, i)[0]}${i >= HAZARDS.length ? `, ${pick(STREETS, i)}` : ''}`,
      severity: pick(HAZARDS, i)[1],
      location: `${pick(['Chainage', 'Chamber', 'Compound gate', 'Bank'], i)} ${10 + i * 25} m, ${pick(STREETS, i)}`,
    },
  });
  const risk = (i: number) => ({
    title: pick(CONTROLS, i),
    control_measures: [
      pick(CONTROLS, i),
      pick(['Toolbox talk', 'Supervised at all times', 'Daily inspection'], i),
    ],
    residual_risk: pick(RISK_LEVELS, i),
    responsible: pick(['Site manager', 'Ganger', 'Temporary works coordinator'], i),
  });
  /** The change the `i`-th decision is about: changes 0, 1, 5, 6, 10, 11, … */
  const decided = (i: number) => Math.floor(i / 2) * 5 + (i % 2);
  return [
    {
      route: 'createAppointment',
      params: scheme,
      data: () => appoint('client', 'Appointed by the board.', { user: one('users', c.me) }),
    },
    {
      route: 'createAppointment',
      params: scheme,
      data: () => appoint('principal_contractor', 'Framework contractor.', { user: one('users', c.pc) }),
    },
    {
      route: 'createPreConstructionInformation',
      type: 'pre-construction-information',
      params: scheme,
      data: (i) => ({
        attributes: {
          sections: {
            project_description: section(`${pick(WORK, i)} along ${pick(STREETS, i)}, ${town(i)}.`),
            client_brief: section('Keep supplies on; no work near the school at opening and closing times.', [
              'Permit to dig required',
            ]),
            existing_information: section(
              `As-built drawings from ${1960 + (i % 40)}; utility searches done.`,
            ),
          },
        },
      }),
    },
    {
      route: 'createSiteHazard',
      params: (i) => ({ pre_construction_information_id: ids('pre-construction-information', i) }),
      data: hazard,
    },
    {
      route: 'createConstructionPhasePlan',
      type: 'construction-phase-plans',
      as: 'pc',
      params: scheme,
      data: (i) => ({
        attributes: {
          sections: {
            health_and_safety_aims: section(
              `No one harmed on the ${town(i)} job; no pollution of the river.`,
            ),
            site_rules: section('Hard hats, boots, hi-vis, gloves; no lone working in chambers.', [
              'Permit to dig',
            ]),
          },
        },
      }),
    },
    {
      route: 'createPlanRisk',
      as: 'pc',
      params: (i) => ({ construction_phase_plan_id: ids('construction-phase-plans', i) }),
      data: (i) => ({
        attributes: risk(i),
        relationships: { hazard: one('site-hazards', ids('site-hazards', i)) },
      }),
    },

    // The main scheme: its Principal Designer, and designers and contractors (people, teams, service
    // accounts), three of them ended since.
    {
      route: 'createAppointment',
      count: 1,
      params: () => scheme(0),
      data: () =>
        appoint('principal_designer', 'Design consultant.', { user: one('users', ids('users', 1)) }),
    },
    {
      route: 'createAppointment',
      count: 27,
      serial: true,
      into: 'main-appointments',
      params: () => scheme(0),
      data: (i) =>
        appoint(
          i % 3 === 0 ? 'designer' : 'contractor',
          `${town(i)} package.`,
          i < 3
            ? { user: one('users', ids('users', i + 2)) }
            : i % 2 === 0
              ? { team: one('teams', ids('teams', i)) }
              : { service_account: one('service-accounts', ids('service-accounts', i)) },
        ),
    },
    {
      route: 'endAppointment',
      count: 3,
      serial: true,
      type: 'appointments',
      into: 'ended-appointments',
      params: (i) => ({ appointment_id: ids('main-appointments', i * 9 + 4) }),
      data: (i) => ({
        id: ids('main-appointments', i * 9 + 4),
        attributes: { status: 'ended', end_reason: 'Package complete.' },
      }),
    },
    // The main pack's hazards and the main plan's risks, one per hazard; the plan's sections; handover.
    {
      route: 'createSiteHazard',
      count: N - 1,
      serial: true,
      into: 'main-hazards',
      params: pack,
      data: (i) => hazard(i + 1),
    },
    {
      route: 'createPlanRisk',
      count: N - 1,
      serial: true,
      as: 'pc',
      into: 'main-risks',
      params: plan,
      data: (i) => ({
        attributes: risk(i + 1),
        relationships: { hazard: one('site-hazards', ids('main-hazards', i)) },
      }),
    },
    {
      route: 'updateConstructionPhasePlan',
      count: PLAN_SECTIONS.length - 2,
      serial: true,
      as: 'pc',
      into: 'plan-edits',
      params: plan,
      data: (i) => ({
        id: ids('construction-phase-plans'),
        attributes: {
          sections: {
            [pick(PLAN_SECTIONS, i + 2)]: section(
              `${pick(PLAN_SECTIONS, i + 2).replaceAll('_', ' ')}: as briefed.`,
            ),
          },
        },
      }),
    },
    {
      route: 'updateConstructionPhasePlan',
      count: 1,
      into: 'plan-edits',
      params: plan,
      data: () => ({
        id: ids('construction-phase-plans'),
        attributes: {
          sections: { client_checklist: section('Welfare, PCI, appointments and F10 notice checked.') },
        },
      }),
    },
    {
      route: 'handOverConstructionPhasePlan',
      count: 1,
      as: 'pc',
      status: 200,
      into: 'handed-over',
      params: plan,
    },
    // After handover: proposals of new hazards, then proposed changes (a third naming a pending proposal).
    {
      route: 'createHazardProposal',
      as: (i) => (i % 2 === 0 ? 'pc' : 'admin'),
      params: pack,
      data: (i) => ({
        attributes: {
          ...hazard(i + 3).attributes,
          reason: `Found on the ${at(i, 3).slice(0, 10)} walkover.`,
        },
      }),
    },
    {
      route: 'createProposedChange',
      status: 200,
      into: 'proposed-changes',
      as: (i) => (i % 3 === 1 ? 'admin' : 'pc'),
      params: plan,
      data: (i) => ({
        attributes: {
          reason: `${pick(['Ground conditions changed', 'New subcontractor', 'Client request', 'Near miss review'], i)} (${at(i, 2).slice(0, 10)}).`,
          section: 'risks',
          operation: i % 3 === 1 ? 'update' : 'create',
          proposed: { risk: i % 3 === 1 ? { residual_risk: pick(RISK_LEVELS, i + 1) } : risk(i + 4) },
        },
        relationships: [
          { hazard: one('site-hazards', ids('main-hazards', i)) },
          { risk: one('construction-phase-plan-risks', ids('main-risks', i)) },
          { hazard_proposal: one('hazard-proposals', ids('hazard-proposals', i)) },
        ][i % 3],
      }),
    },
    // Decisions, one at a time (an accepted change is a new plan version), each by the other party:
    // changes 0, 5, 10, … accepted, 1, 6, 11, … rejected; hazard proposals 0, 3, 6, … (none of them
    // named by a change) accepted or rejected.
    {
      route: 'decideProposedChange',
      count: 12,
      serial: true,
      type: 'construction-phase-plan-proposed-changes',
      into: 'decided-changes',
      as: (i) => (decided(i) % 3 === 1 ? 'pc' : 'admin'),
      params: (i) => ({ proposed_change_id: ids('proposed-changes', decided(i)) }),
      data: (i) => ({
        id: ids('proposed-changes', decided(i)),
        attributes:
          i % 2 === 0
            ? { status: 'accepted' }
            : { status: 'rejected', decision_reason: 'Covered by the existing method statement.' },
      }),
    },
    {
      route: 'decideHazardProposal',
      count: 6,
      serial: true,
      type: 'hazard-proposals',
      into: 'decided-proposals',
      params: (i) => ({ hazard_proposal_id: ids('hazard-proposals', 3 * i) }),
      data: (i) => ({
        id: ids('hazard-proposals', 3 * i),
        attributes:
          i % 2 === 0
            ? { status: 'accepted' }
            : { status: 'rejected', decision_reason: 'Already on the pack.' },
      }),
    },
  ];
};

/** Subscriptions of other integrations (a quarter paused), half of them made by the integration. */
const laterSubscriptions: Step = {
  route: 'createWebhookSubscription',
  count: N - 1,
  into: 'hooks',
  as: (i) => (i % 2 === 0 ? 'bot' : 'admin'),
  data: (i) => ({
    attributes: {
      url: `https://hooks.${pick(['fieldops', 'assetlink', 'gisbridge', 'payrollhub', 'costtrack'], i)}.example/northmere/${slug(town(i))}`,
      event_types: [
        pick(
          [
            'vehicle.deleted',
            'location.deleted',
            'customer-account.deleted',
            'agent.deleted',
            'folder.deleted',
          ],
          i,
        ),
      ],
      enabled: i % 4 !== 3,
      description: `${town(i)} ${pick(['field app', 'GIS sync', 'asset register', 'finance system'], i)}`,
    },
  }),
};

/**
 * Street-works objects as the receiver records them (`processNotification`, what POST
 * /street-works/protections calls once a message's signature is verified): 30 permits, two events each
 * for most (submitted, then granted or refused), and 30 activities, each event a protection.
 */
const deliverStreetWorks = (prefix: string) =>
  inParallel(N, PARALLEL, async (i) => {
    const deliver = async (type: 'PERMIT' | 'ACTIVITY', event: string, hours: number) => {
      const reference = `${prefix}${type === 'PERMIT' ? 'P' : 'A'}${4100 + i * 7}`;
      const eventReference = `${reference}-${event}`;
      await processNotification({
        Type: 'Notification',
        MessageId: eventReference,
        TopicArn: 'arn:aws:sns:eu-west-2:123456789012:street-works-permits',
        Message: JSON.stringify({
          event_reference: eventReference,
          event_type: event,
          object_type: type,
          object_reference: reference,
          event_time: at(i, 4, `2025-09-01T0${hours}:00:00Z`),
          object_data: { usrn: String(10_070_000 + i * 13), street: `${pick(STREETS, i)}, ${town(i)}` },
        }),
        Timestamp: new Date().toISOString(),
        SignatureVersion: '2',
        Signature: '',
        SigningCertURL: '',
      });
    };
    await deliver('PERMIT', 'PERMIT_SUBMITTED', 7);
    if (i % 3 !== 2) await deliver('PERMIT', i % 4 === 0 ? 'PERMIT_REFUSED' : 'PERMIT_GRANTED', 8);
    await deliver('ACTIVITY', 'ACTIVITY_CREATED', 7);
    if (i % 2 === 0) await deliver('ACTIVITY', 'WORK_START', 9);
  });

/** Waits (up to two minutes) until every job the admin started has succeeded or failed. */
const finishJobs = async (c: Ctx) => {
  for (let waited = 0; waited < 120_000; waited += 500) {
    const page = await c.send('admin', 'GET', `/v3/orgs/${c.org}/jobs?page[limit]=100`);
    const open = (page.data as Doc[]).filter((j) => ['queued', 'running'].includes(j.attributes.status));
    if (open.length === 0) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new SeedError('jobs still running after two minutes');
};

/** Routes no seeding applies to, with why. */
const NOT_SEEDED: Record<string, string> = {
  listCostRollups: 'benched on its own (test/bench/cost-rollups.ts)',
};

/**
 * The concrete path of every collection route (its own parameters filled with the parent seeded for
 * it; query parameters where the route needs them) and how many records it now answers.
 */
const seededPaths = async (c: Ctx, streetWorksOrg: string | null): Promise<SeededRoute[]> => {
  const ids = (name: string) => id(c, name);
  const parents: Record<string, () => Record<string, string>> = {
    service_account_id: () => ({ service_account_id: c.bot }),
    vehicle_id: () => ({ vehicle_id: ids('vehicles') }),
    rate_code_id: () => ({ rate_code_id: ids('rate-codes') }),
    scheme_id: () => ({ scheme_id: ids('schemes') }),
    pre_construction_information_id: () => ({
      pre_construction_information_id: ids('pre-construction-information'),
    }),
    construction_phase_plan_id: () => ({ construction_phase_plan_id: ids('construction-phase-plans') }),
    agent_id: () => ({ agent_id: ids('agents') }),
    folder_id: () => ({ folder_id: ids('root-folders') }),
    document_id: () => ({ document_id: ids('documents') }),
    webhook_subscription_id: () => ({ webhook_subscription_id: ids('hooks') }),
    qualification_specification_id: () => ({
      qualification_specification_id: ids('qualification-specifications'),
    }),
  };
  const queries: Record<string, string> = {
    searchProjects: '?filter[prefix]=section',
    listComments: `?filter[subject_id]=${ids('schemes')}`,
    evaluateQualificationSpecification: `?filter[person]=${(c.ids.users ?? []).join(',')}`,
  };
  const streetWorksRoutes = new Set(['listPermits', 'listStreetWorks', 'listStreetWorksProtections']);
  const collections = routes.filter(
    (r) => r.method === 'GET' && (r.declared?.operation === 'list' || r.answers?.collection),
  );
  const seeded: SeededRoute[] = [];
  for (const route of collections) {
    const reason = NOT_SEEDED[route.id];
    if (reason) {
      seeded.push({ route: route.id, skipped: reason });
      continue;
    }
    if (streetWorksRoutes.has(route.id) && !streetWorksOrg) {
      seeded.push({
        route: route.id,
        skipped: 'STREET_WORKS_ORGANISATIONS routes no reference prefix to an organisation',
      });
      continue;
    }
    const params: Record<string, string> = {
      org_id: streetWorksRoutes.has(route.id) && streetWorksOrg ? streetWorksOrg : c.org,
    };
    const names = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => name);
    const unknown = names.filter((name) => name !== 'org_id' && !parents[name]);
    if (unknown.length > 0) {
      seeded.push({ route: route.id, skipped: `no parent is seeded for {${unknown.join('}, {')}} yet` });
      continue;
    }
    for (const name of names) Object.assign(params, parents[name]?.());
    const path = fill(route, params) + (queries[route.id] ?? '');
    seeded.push({ route: route.id, path, records: await countOf(c, path, route) });
  }
  return seeded;
};

/** The records a path answers: `meta.pagination`'s count, or (a cursor feed) the events paged through. */
const countOf = async (c: Ctx, path: string, route: Route): Promise<number> => {
  const join = path.includes('?') ? '&' : '?';
  if (!route.answers?.cursor) {
    const page = await c.send('admin', 'GET', `${path}${join}page[limit]=1`);
    return page.meta?.pagination?.counts?.resources ?? page.data.length;
  }
  let count = 0;
  let cursor = '';
  for (;;) {
    const page = await c.send('admin', 'GET', `${path}${join}page[limit]=1000${cursor}`);
    count += page.data.length;
    const last = page.data.at(-1)?.id;
    if (page.data.length < 1000 || !last) return count;
    cursor = `&cursor=${last}`;
  }
};
