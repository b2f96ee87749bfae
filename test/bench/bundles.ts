/**
 * Each area function as the stack builds it (infra/area-bundle.ts: the area router, esbuild with code
 * splitting), against a bare handler that only does a GetCommand, built alike. Start-up is the median
 * time, in a fresh Node process, from importing the entry to the first answer of one of the area's routes
 * (an authenticated one, answered 401 without a credential, where the area has one), alternated with the
 * bare handler's import so both see the same machine.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { areas, bundleArea, REPOSITORY_ROOT } from '../../infra/area-bundle';
import type { Route } from '../../shared/routes';

const out = mkdtempSync(join(tmpdir(), 'bundles-'));

const bytesIn = (dir: string): { bytes: number; files: number } =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .reduce((t, f) => ({ bytes: t.bytes + statSync(join(f.parentPath, f.name)).size, files: t.files + 1 }), {
      bytes: 0,
      files: 0,
    });

/** Configuration as the stack gives it; DynamoDB at a closed port, so nothing waits on a network. */
const env = {
  ...process.env,
  STAGE: 'dev',
  TABLE_NAME: 'table',
  DEVICE_BACKUPS_BUCKET: 'backups',
  EXPORTS_BUCKET: 'exports',
  DOCUMENTS_BUCKET: 'documents',
  TOKEN_ISSUER: 'https://api.example',
  TOKEN_AUDIENCE: 'compliance-api:dev',
  AWS_REGION: 'eu-west-2',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_MAX_ATTEMPTS: '1',
  DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
  NODE_NO_WARNINGS: '1',
};

/** Milliseconds from importing `file` to its answer to `request` (none: the import alone). */
const startTime = (file: string, request?: { method: string; path: string }) => {
  const call = request
    ? `await m.handler({ version: '2.0', rawPath: ${JSON.stringify(request.path)}, rawQueryString: '', headers: {}, isBase64Encoded: false, requestContext: { domainName: 'bench', requestId: 'bench', http: { method: ${JSON.stringify(request.method)}, path: ${JSON.stringify(request.path)}, sourceIp: '127.0.0.1' } } }, { awsRequestId: 'bench', getRemainingTimeInMillis: () => 10000 });`
    : '';
  const script = `const t = performance.now(); const m = await import(${JSON.stringify(file)}); ${call} process.stdout.write(String(performance.now() - t));`;
  return Number(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
};
const median = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;

/** The request an area is timed with: an authenticated route where it has one, its parameters filled. */
const requestFor = (routes: readonly Route[]) => {
  const route = routes.find((r) => r.auth.length > 0) ?? routes[0];
  return (
    route && {
      method: route.method,
      path: route.path.replace(/\{\w+\}/g, '0190a0a0-0000-7000-8000-000000000001'),
    }
  );
};

export const benchBundles = async () => {
  const bareDir = join(out, 'bare');
  buildSync({
    entryPoints: [resolve(import.meta.dirname, 'bare-handler.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    minify: true,
    keepNames: true,
    mainFields: ['module', 'main'],
    outfile: join(bareDir, 'index.mjs'),
    logLevel: 'silent',
    tsconfig: resolve(REPOSITORY_ROOT, 'tsconfig.json'),
    banner: {
      js: "import { createRequire } from 'node:module';const require = createRequire(import.meta.url);",
    },
  });
  const bare = join(bareDir, 'index.mjs');
  const figures: Record<string, string> = { bare_handler_bytes: String(bytesIn(bareDir).bytes) };
  const ratios: number[] = [];
  for (const [area, routes] of areas()) {
    const dir = join(out, area);
    bundleArea(area, routes, dir);
    const request = requestFor(routes);
    const pairs = Array.from({ length: 9 }, () => [
      startTime(bare),
      startTime(join(dir, 'index.mjs'), request),
    ]);
    const [b, a] = [median(pairs.map(([x]) => x ?? 0)), median(pairs.map(([, y]) => y ?? 0))];
    const { bytes, files } = bytesIn(dir);
    ratios.push(a / b);
    figures[`area ${area}`] =
      `${routes.length} routes; ${bytes} bytes in ${files} files; first answer (${request?.method} ${routes.find((r) => r.auth.length > 0)?.id ?? routes[0]?.id}) ${a.toFixed(1)} ms against ${b.toFixed(1)} ms: ${(a / b).toFixed(2)}×`;
  }
  figures.start_up_ratio_max = Math.max(...ratios).toFixed(2);
  figures.start_up_ratio_median = median(ratios).toFixed(2);
  return figures;
};
