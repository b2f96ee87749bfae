/**
 * Each area function as the stack builds it (infra/area-bundle.ts: the area router, esbuild with code
 * splitting), against a bare handler that only does a GetCommand, built alike. Start-up is the median
 * time, in a fresh Node process, from importing the entry to its first answer, alternated with the bare
 * handler's so all see the same machine. The request is the one a cold container really meets: a first
 * authenticated GET of a record of the area's (a declared `get` route whose record the demo data holds),
 * once with a session and once with a bearer token verified with the keys the deployment ships
 * (TOKEN_VERIFICATION_KEYS), against DynamoDB Local; the bare handler's first answer is a GetItem of that
 * same record, so both pay the SDK's first call (credentials, signing, a connection). An area with no such
 * route is timed with an authenticated GET of another route (a list that requires a filter: a read of a
 * record by its id alone, `/v3/comments/{id}`), and an area of public routes only (status,
 * auth, the fallback) with its first route and an Accept header JSON:API refuses (406); the statuses seen
 * are reported. The start-up budget (issue 42): the median over areas of each area's larger CPU ratio at
 * most START_UP_BUDGET.median, every area under START_UP_BUDGET.max; `start_up_over_budget` names the
 * others. CPU, not wall time: with other work on the machine a wall ratio's quartiles span 0.8–2.5×
 * while the CPU ratio's stay within a few hundredths (bench/results.md shows both).
 *
 * Besides wall time, each run reports the process's CPU time over the same span (all threads): on a
 * machine shared with other work, CPU time moves much less with the load than wall time does. And each
 * area reports the bytes its cold start reads: the entry and every chunk it imports statically, then the
 * timed route's chunk and its static imports (code behind a dynamic `import()`, such as the S3 SDK, is not
 * read until a request needs it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync, type Metafile } from 'esbuild';
import { issueAccessToken } from '#shared/auth/issue-access-token';
import { queryItems } from '#shared/data/repository';
import { collectionPartition, type StoredResource } from '#shared/data/stored-resource';
import type { Route } from '#shared/routes';
import { areas, bundleArea, coldStartFiles } from '../../infra/area-bundle';
import { createServiceAccountClient } from '../../infra/local/records';
import { nodeBundle } from '../../infra/node-bundle';
import { liveFunctionEnv } from '../support/bundle-env';
import { demoData } from './demo';

/** Issue 42's start-up budget: each area's larger CPU ratio (session or bearer) to the bare handler's. */
export const START_UP_BUDGET = { median: 1.25, max: 1.35 };

const out = mkdtempSync(join(tmpdir(), 'bundles-'));

const bytesIn = (dir: string): { bytes: number; files: number } =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .reduce((t, f) => ({ bytes: t.bytes + statSync(join(f.parentPath, f.name)).size, files: t.files + 1 }), {
      bytes: 0,
      files: 0,
    });

interface TimedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
}

/**
 * Milliseconds from importing `file` to its answer to `request` (the bare handler: its GetItem of `key`),
 * wall and CPU time, and the answer's status code.
 */
const startTime = (
  env: NodeJS.ProcessEnv,
  file: string,
  request: TimedRequest | { pk: string; sk: string },
) => {
  const call =
    'method' in request
      ? `const { statusCode } = await m.handler({ version: '2.0', rawPath: ${JSON.stringify(request.path)}, rawQueryString: '', headers: ${JSON.stringify(request.headers)}, isBase64Encoded: false, requestContext: { domainName: 'bench', requestId: 'bench', http: { method: ${JSON.stringify(request.method)}, path: ${JSON.stringify(request.path)}, sourceIp: '127.0.0.1' } } }, { awsRequestId: 'bench', getRemainingTimeInMillis: () => 10000 });`
      : `const { statusCode } = await m.handler(${JSON.stringify(request)});`;
  // The figures follow a marker: the function's own log lines share its standard output.
  const script = `const t = performance.now(); const c = process.cpuUsage(); const m = await import(${JSON.stringify(file)}); ${call} const u = process.cpuUsage(c); process.stdout.write('\\n${MARK}' + JSON.stringify([performance.now() - t, (u.user + u.system) / 1000, statusCode]));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [ms, cpu, status] = JSON.parse(out.slice(out.lastIndexOf(MARK) + MARK.length)) as [
    number,
    number,
    number,
  ];
  return { ms, cpu, status };
};
/** The value at fraction `p` of the sorted values (0.5: the median). */
const quantile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * p)] ?? 0;
const median = (values: number[]) => quantile(values, 0.5);
const MARK = 'START-UP ';
const ROUNDS = 15;

/** Bytes a cold start of `route` reads: the entry's static imports, then the route chunk's. */
const coldBytes = (metafile: Metafile, route: Route) => {
  const read = coldStartFiles(metafile, route);
  return { bytes: [...read].reduce((t, f) => t + (metafile.outputs[f]?.bytes ?? 0), 0), files: read.size };
};

interface Caller {
  orgId: string;
  /** Headers of a first request with a session, and with a bearer token. */
  session: Record<string, string>;
  bearer: Record<string, string>;
}

/** The demo's first organisation, its administrator's session, and a service account's bearer token. */
const benchCaller = async (): Promise<Caller> => {
  const org = (await demoData()).organisations[0];
  if (!org?.user) throw new Error('demo data has no session user');
  const client = await createServiceAccountClient('Start-up bench (admin)', [
    { org_id: org.id, role: 'admin' },
  ]);
  const { token } = await issueAccessToken(client.principalId, client.clientId);
  return {
    orgId: org.id,
    session: { 'x-session-token': org.user.session_token },
    bearer: { authorization: `Bearer ${token}` },
  };
};

const ABSENT_ID = '0190a0a0-0000-7000-8000-000000000001';

/**
 * A stored record a route `/v3/orgs/{org_id}/…/{id}` serving `get` answers (with `byIdAlone`, a route
 * `/v3/…/{id}`), if the demo data has one.
 */
const recordFor = async (
  route: Route,
  orgId: string,
  byIdAlone = false,
): Promise<StoredResource | undefined> => {
  const params = route.path.match(/\{\w+\}/g) ?? [];
  const shaped = byIdAlone ? params.length === 1 : params.length === 2 && params[0] === '{org_id}';
  if (route.declared?.operation !== 'get' || !shaped) return undefined;
  const [item] = await queryItems<StoredResource>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': collectionPartition(orgId, route.declared.resource.type) },
    Limit: 1,
  });
  return item;
};

/** A declared list with a filter a request must name. */
const requiresFilter = (route: Route) =>
  route.declared?.operation === 'list' &&
  Object.values(route.declared.resource.collection?.filters ?? {}).some(
    (filter) => typeof filter === 'object' && filter.required === true,
  );

interface Timed {
  route: Route;
  /** The first request with each credential (a public area: one request, without). */
  requests: TimedRequest[];
  /** The key the bare handler reads: the route's record, or one that is absent. */
  key: { pk: string; sk: string };
}

/** The requests an area is timed with (see the top of this file), its path parameters filled. */
const requestsFor = async (routes: readonly Route[], caller: Caller): Promise<Timed | undefined> => {
  const authenticated = routes.filter(
    (r) => r.method === 'GET' && r.auth.includes('Session') && r.auth.includes('OAuth2'),
  );
  const read = (route: Route, record: StoredResource): Timed => {
    const path = route.path.replace('{org_id}', caller.orgId).replace(/\{\w+\}/, record.id);
    return {
      route,
      requests: [caller.session, caller.bearer].map((headers) => ({ method: 'GET', path, headers })),
      key: { pk: record.pk, sk: record.sk },
    };
  };
  for (const route of authenticated) {
    const record = await recordFor(route, caller.orgId);
    if (record) return read(route, record);
  }
  const absent = { pk: `BENCH#${ABSENT_ID}`, sk: ABSENT_ID };
  const other = authenticated[0];
  // A list that requires a filter answers 400 without one (comments need their subject): the area is
  // timed with a read of one of its records by its id instead, a real read.
  if (other && requiresFilter(other))
    for (const route of authenticated) {
      const record = await recordFor(route, caller.orgId, true);
      if (record) return read(route, record);
    }
  if (other) {
    const path = other.path.replace('{org_id}', caller.orgId).replace(/\{\w+\}/g, ABSENT_ID);
    return {
      route: other,
      requests: [caller.session, caller.bearer].map((headers) => ({ method: 'GET', path, headers })),
      key: absent,
    };
  }
  const route = routes[0];
  return (
    route && {
      route,
      requests: [
        {
          method: route.method,
          path: route.path.replace(/\{\w+\}/g, ABSENT_ID),
          // JSON:API 1.1: a server answers 406 when every JSON:API media type in Accept has an extension.
          headers: { accept: 'application/vnd.api+json; ext="https://bench.example/none"' },
        },
      ],
      key: absent,
    }
  );
};

const SCHEMES = ['session', 'bearer'] as const;

export const benchBundles = async () => {
  const bareDir = join(out, 'bare');
  buildSync({
    ...nodeBundle,
    entryPoints: [resolve(import.meta.dirname, 'bare-handler.ts')],
    outfile: join(bareDir, 'index.mjs'),
  });
  const bare = join(bareDir, 'index.mjs');
  const caller = await benchCaller();
  const env = liveFunctionEnv();
  const figures: Record<string, string> = { bare_handler_bytes: String(bytesIn(bareDir).bytes) };
  const ratios = new Map<string, number>();
  const cpuRatios = new Map<string, number>();
  for (const [area, routes] of areas()) {
    const dir = join(out, area);
    const { metafile } = bundleArea(area, routes, dir);
    const timed = await requestsFor(routes, caller);
    if (!timed) continue;
    // Each round: the bare handler, then the area's first answer to each request, adjacent in time.
    const rounds = Array.from({ length: ROUNDS }, () => ({
      bare: startTime(env, bare, timed.key),
      area: timed.requests.map((request) => startTime(env, join(dir, 'index.mjs'), request)),
    }));
    const spread = (ratios: number[]) =>
      `${median(ratios).toFixed(2)}× (quartiles ${quantile(ratios, 0.25).toFixed(2)}–${quantile(ratios, 0.75).toFixed(2)})`;
    // A ratio is the median of each round's ratio (its runs are adjacent in time, so a change in the
    // machine's load between rounds cancels out), with the quartiles as its spread.
    const perRequest = timed.requests.map((_, i) => {
      const runs = rounds.map((r) => r.area[i] ?? { ms: 0, cpu: 0, status: 0 });
      const paired = runs.map((r, j) => r.ms / (rounds[j]?.bare.ms ?? 1));
      const pairedCpu = runs.map((r, j) => r.cpu / (rounds[j]?.bare.cpu ?? 1));
      const statuses = [...new Set(runs.map((r) => r.status))].join(', ');
      const name = timed.requests.length > 1 ? `${SCHEMES[i]} ` : '';
      return {
        ratio: median(paired),
        cpuRatio: median(pairedCpu),
        text: `${name}→ ${statuses}: ${median(runs.map((r) => r.ms)).toFixed(1)} ms, ${spread(paired)}; CPU ${median(runs.map((r) => r.cpu)).toFixed(1)} ms, ${spread(pairedCpu)}`,
      };
    });
    const [b, bc] = [median(rounds.map((r) => r.bare.ms)), median(rounds.map((r) => r.bare.cpu))];
    const { bytes, files } = bytesIn(dir);
    const cold = coldBytes(metafile, timed.route);
    ratios.set(area, Math.max(...perRequest.map((r) => r.ratio)));
    cpuRatios.set(area, Math.max(...perRequest.map((r) => r.cpuRatio)));
    figures[`area ${area}`] =
      `${routes.length} routes; ${bytes} bytes in ${files} files, a cold start reads ${cold.bytes} in ${cold.files}; first answer to ${timed.requests[0]?.method} ${timed.route.id} against the bare GetItem's ${b.toFixed(1)} ms (CPU ${bc.toFixed(1)} ms): ${perRequest.map((r) => r.text).join('; ')}`;
  }
  const summary = (of: Map<string, number>) => ({
    max: Math.max(...of.values()),
    median: median([...of.values()]),
  });
  const wall = summary(ratios);
  const cpu = summary(cpuRatios);
  figures.start_up_ratio_max = wall.max.toFixed(2);
  figures.start_up_ratio_median = wall.median.toFixed(2);
  figures.start_up_cpu_ratio_max = cpu.max.toFixed(2);
  figures.start_up_cpu_ratio_median = cpu.median.toFixed(2);
  const over = [...cpuRatios]
    .filter(([, r]) => r >= START_UP_BUDGET.max)
    .map(([area, r]) => `${area} ${r.toFixed(2)}×`);
  figures.start_up_budget = `CPU: median ≤ ${START_UP_BUDGET.median}× (${cpu.median <= START_UP_BUDGET.median ? 'met' : 'NOT met'}: ${cpu.median.toFixed(2)}×), every area < ${START_UP_BUDGET.max}×`;
  figures.start_up_over_budget = over.length === 0 ? 'none' : over.join(', ');
  return figures;
};
