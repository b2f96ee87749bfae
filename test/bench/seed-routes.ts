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
 *
 * The records each area writes are its own: `functions/<area>/bench-seeds.ts` (see `BenchSeeds` in
 * seed-steps.ts), found by that name for each area of the composition root's list, so adding an area's
 * seeds edits nothing here. No module of the service imports them, so no byte of them enters a bundle.
 */
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
import { areaModules, loadModule } from '../../infra/area-modules';
import { startEventStream } from '../../infra/local/event-stream';
import { startLambdaEndpoint } from '../../infra/local/lambda-endpoint';
import { createFeatureConfiguration, createOrganisation } from '../../infra/local/records';
import {
  at,
  type BenchSeeds,
  type Caller,
  type Doc,
  idsOf,
  inParallel,
  N,
  one,
  PARALLEL,
  pick,
  type SeedContext,
  type Send,
  STREETS,
  type Step,
  slug,
  TOWNS,
  town,
} from './seed-steps';

export type SeededRoute =
  | { route: string; path: string; records: number }
  | { route: string; skipped: string };

/**
 * Every area's bench seeds, in the composition root's order of the areas (the order its routes are
 * listed in): `functions/<area>/bench-seeds.ts` where an area has one.
 */
const loadBenchSeeds = async (): Promise<BenchSeeds[]> =>
  Promise.all(
    areaModules('bench-seeds.ts').map(
      async ([, module]) => (await loadModule<{ benchSeeds: BenchSeeds }>(module)).benchSeeds,
    ),
  );

/** The areas' `writes` groups, by `at` (a stable sort: equal `at`s stay in the areas' order). */
const writesInOrder = (seeds: BenchSeeds[], c: SeedContext): Step[] =>
  seeds
    .flatMap((area) => area.writes ?? [])
    .sort((a, b) => a.at - b.at)
    .flatMap((group) => group.steps(c));

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
  const ctx: SeedContext = { org: api.orgId, ids: {}, me: '', pc: '', bot: '', hookUrl: '', send };
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
  ctx.hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/northmere/events`;
  const seeds = await loadBenchSeeds();
  try {
    const streetWorks = await seedDirect(api);
    await findDemoRecords(ctx);
    ctx.me = (await send('admin', 'GET', '/v3/whoami')).data.id;
    // The second person: the Principal Contractor on the CDM schemes (the other party of each decision).
    ctx.pc = ctx.ids.users?.find((u) => u !== ctx.me) ?? '';
    await send('admin', 'POST', `/v3/orgs/${ctx.org}/iam/grants`, grant('admin', 'user', ctx.pc));
    headers.pc = { 'x-session-token': (await startSession(ctx.pc)).token };
    // An integration: a service account with a key, the admin role and a bearer token.
    for (const step of seeds.flatMap((area) => area.first ?? [])) await run(step);
    ctx.bot = idsOf(ctx)('service-accounts');
    const keys = `/v3/orgs/${ctx.org}/iam/service-accounts/${ctx.bot}/keys`;
    const key = await send('admin', 'POST', keys, {});
    await send('admin', 'POST', `/v3/orgs/${ctx.org}/iam/grants`, grant('admin', 'service_account', ctx.bot));
    headers.bot = { authorization: `Bearer ${await accessToken(api.url, key.data.attributes)}` };

    for (const step of writesInOrder(seeds, ctx)) await run(step);
    if (streetWorks) await deliverStreetWorks(streetWorks.prefix);
    const writes = performance.now();
    await stream.drain();
    time(`events handed over ${(performance.now() - writes).toFixed(0)} ms after the last write`);
    await finishJobs(ctx);
    time(`jobs finished ${(performance.now() - writes).toFixed(0)} ms after the last write`);
    // Other integrations' subscriptions last (half of them by the integration itself): no event after
    // them is one they take, so nothing is sent to their addresses (which do not resolve); and the
    // newest audit entries name both a user and a service account.
    for (const step of seeds.flatMap((area) => area.last ?? [])) await run(step);
    await stream.drain();
    time(`${requests} requests`);
    return await seededPaths(ctx, streetWorks?.orgId ?? null);
  } finally {
    await stream.stop();
    await workers.stop();
    await new Promise<void>((done) => receiver.close(() => done()));
  }
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
const findDemoRecords = async (c: SeedContext) => {
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
const finishJobs = async (c: SeedContext) => {
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
const seededPaths = async (c: SeedContext, streetWorksOrg: string | null): Promise<SeededRoute[]> => {
  const ids = idsOf(c);
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
const countOf = async (c: SeedContext, path: string, route: Route): Promise<number> => {
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
