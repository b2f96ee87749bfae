/**
 * Each area function as the stack builds it (infra/area-bundle.ts: the area router, esbuild with code
 * splitting), against a bare handler that only does a GetCommand, built alike. Start-up is the median
 * time, in a fresh Node process, from importing the entry to the first answer of one of the area's routes,
 * alternated with the bare handler's import so both see the same machine. Every area is timed with a
 * request its route refuses before any I/O, so the time is loading and running the area's code, as the
 * bare handler's is loading its code: an authenticated route without a credential (401), or, in an area
 * of public routes only (status, auth, the fallback), its first route with an Accept header JSON:API refuses (406).
 * A request that reads the table would add the SDK's first call (credentials, signing, a connection),
 * which the bare handler's first GetCommand would pay alike and which is not start-up.
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
import type { Route } from '#shared/routes';
import { areas, bundleArea, coldStartFiles } from '../../infra/area-bundle';
import { nodeBundle } from '../../infra/node-bundle';
import { bundleEnv } from '../support/bundle-env';

const out = mkdtempSync(join(tmpdir(), 'bundles-'));

const bytesIn = (dir: string): { bytes: number; files: number } =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .reduce((t, f) => ({ bytes: t.bytes + statSync(join(f.parentPath, f.name)).size, files: t.files + 1 }), {
      bytes: 0,
      files: 0,
    });

const env = { ...process.env, ...bundleEnv };

interface TimedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
}

/**
 * Milliseconds from importing `file` to its answer to `request` (none: the import alone), wall and CPU
 * time, and the answer's status code.
 */
const startTime = (file: string, request?: TimedRequest) => {
  const call = request
    ? `const { statusCode } = await m.handler({ version: '2.0', rawPath: ${JSON.stringify(request.path)}, rawQueryString: '', headers: ${JSON.stringify(request.headers)}, isBase64Encoded: false, requestContext: { domainName: 'bench', requestId: 'bench', http: { method: ${JSON.stringify(request.method)}, path: ${JSON.stringify(request.path)}, sourceIp: '127.0.0.1' } } }, { awsRequestId: 'bench', getRemainingTimeInMillis: () => 10000 });`
    : 'const statusCode = 0;';
  const script = `const t = performance.now(); const c = process.cpuUsage(); const m = await import(${JSON.stringify(file)}); ${call} const u = process.cpuUsage(c); process.stdout.write(JSON.stringify([performance.now() - t, (u.user + u.system) / 1000, statusCode]));`;
  const [ms, cpu, status] = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as [number, number, number];
  return { ms, cpu, status };
};
/** The value at fraction `p` of the sorted values (0.5: the median). */
const quantile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * p)] ?? 0;
const median = (values: number[]) => quantile(values, 0.5);
const ROUNDS = 15;

/** Bytes a cold start of `route` reads: the entry's static imports, then the route chunk's. */
const coldBytes = (metafile: Metafile, route: Route) => {
  const read = coldStartFiles(metafile, route);
  return { bytes: [...read].reduce((t, f) => t + (metafile.outputs[f]?.bytes ?? 0), 0), files: read.size };
};

/** The request an area is timed with (see the top of this file), its path parameters filled. */
const requestFor = (routes: readonly Route[]): (TimedRequest & { route: Route }) | undefined => {
  const authenticated = routes.find((r) => r.auth.length > 0);
  const route = authenticated ?? routes[0];
  return (
    route && {
      route,
      method: route.method,
      path: route.path.replace(/\{\w+\}/g, '0190a0a0-0000-7000-8000-000000000001'),
      // JSON:API 1.1: a server answers 406 when every JSON:API media type in Accept has an extension.
      headers: authenticated ? {} : { accept: 'application/vnd.api+json; ext="https://bench.example/none"' },
    }
  );
};

export const benchBundles = async () => {
  const bareDir = join(out, 'bare');
  buildSync({
    ...nodeBundle,
    entryPoints: [resolve(import.meta.dirname, 'bare-handler.ts')],
    outfile: join(bareDir, 'index.mjs'),
  });
  const bare = join(bareDir, 'index.mjs');
  const figures: Record<string, string> = { bare_handler_bytes: String(bytesIn(bareDir).bytes) };
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  for (const [area, routes] of areas()) {
    const dir = join(out, area);
    const { metafile } = bundleArea(area, routes, dir);
    const request = requestFor(routes);
    const pairs = Array.from({ length: ROUNDS }, () => [
      startTime(bare),
      startTime(join(dir, 'index.mjs'), request),
    ]);
    const bareRuns = pairs.map(([x]) => x ?? { ms: 0, cpu: 0, status: 0 });
    const areaRuns = pairs.map(([, y]) => y ?? { ms: 0, cpu: 0, status: 0 });
    const [b, a] = [median(bareRuns.map((r) => r.ms)), median(areaRuns.map((r) => r.ms))];
    const [bc, ac] = [median(bareRuns.map((r) => r.cpu)), median(areaRuns.map((r) => r.cpu))];
    // The ratio is the median of each pair's ratio (its two runs are adjacent in time, so a change in the
    // machine's load between pairs cancels out), with the quartiles as its spread.
    const paired = areaRuns.map((r, i) => r.ms / (bareRuns[i]?.ms ?? 1));
    const pairedCpu = areaRuns.map((r, i) => r.cpu / (bareRuns[i]?.cpu ?? 1));
    const spread = (ratios: number[]) =>
      `${median(ratios).toFixed(2)}× (quartiles ${quantile(ratios, 0.25).toFixed(2)}–${quantile(ratios, 0.75).toFixed(2)})`;
    const statuses = [...new Set(areaRuns.map((r) => r.status))].join(', ');
    const { bytes, files } = bytesIn(dir);
    const cold = request ? coldBytes(metafile, request.route) : { bytes: 0, files: 0 };
    ratios.push(median(paired));
    cpuRatios.push(median(pairedCpu));
    figures[`area ${area}`] =
      `${routes.length} routes; ${bytes} bytes in ${files} files, a cold start reads ${cold.bytes} in ${cold.files}; first answer (${request?.method} ${request?.route.id} → ${statuses}) ${a.toFixed(1)} ms against ${b.toFixed(1)} ms: ${spread(paired)}; CPU ${ac.toFixed(1)} ms against ${bc.toFixed(1)} ms: ${spread(pairedCpu)}`;
  }
  figures.start_up_ratio_max = Math.max(...ratios).toFixed(2);
  figures.start_up_ratio_median = median(ratios).toFixed(2);
  figures.start_up_cpu_ratio_max = Math.max(...cpuRatios).toFixed(2);
  figures.start_up_cpu_ratio_median = median(cpuRatios).toFixed(2);
  return figures;
};
