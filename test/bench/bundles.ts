/**
 * Bundle size and start-up per function, built the way the stack builds them (esbuild, ESM, minified,
 * node24, nothing external), each as a ratio to a bare handler that only does a GetCommand; start-up is
 * the median time to import the bundle in a fresh Node process, alternated with the bare handler's
 * (for the largest, median and smallest bundles). Reports the largest bundle's three largest inputs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { routes } from '../../shared/routes';

const root = resolve(import.meta.dirname, '../..');
const out = mkdtempSync(join(tmpdir(), 'bundles-'));

const bundle = async (entry: string, name: string) => {
  const outfile = join(out, `${name}.mjs`);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    minify: true,
    mainFields: ['module', 'main'],
    outfile,
    metafile: true,
    logLevel: 'silent',
    banner: { js: "import { createRequire } from 'module';const require = createRequire(import.meta.url);" },
    tsconfig: resolve(root, 'tsconfig.json'),
  });
  return { outfile, bytes: statSync(outfile).size, metafile: result.metafile as Metafile };
};

/** Milliseconds to import the bundle in a fresh Node process. */
const importTime = (file: string) => {
  const script = `const t = performance.now(); await import(${JSON.stringify(file)}); process.stdout.write(String(performance.now() - t));`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
};
const median = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;

/** Median import times of a bundle and of the bare handler, alternating so both see the same machine. */
const startUp = (file: string, bare: string, runs = 9) => {
  const pairs = Array.from({ length: runs }, () => [importTime(bare), importTime(file)] as const);
  return { bare: median(pairs.map(([b]) => b)), bundle: median(pairs.map(([, f]) => f)) };
};

export const benchBundles = async () => {
  const bare = resolve(import.meta.dirname, 'bare-handler.ts');
  const baseline = await bundle(bare, 'bare');
  const built = [];
  for (const route of routes)
    built.push({ route: route.id, ...(await bundle(resolve(root, route.handler), route.id)) });
  built.sort((a, b) => b.bytes - a.bytes);
  const largest = built[0];
  const inputs = largest
    ? Object.entries(largest.metafile.outputs[Object.keys(largest.metafile.outputs)[0] ?? '']?.inputs ?? {})
        .map(([path, i]) => [path, i.bytesInOutput] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
    : [];
  const sampled = [built[0], built[Math.floor(built.length / 2)], built.at(-1)].filter(
    (b) => b !== undefined,
  );
  const starts = sampled.map((b) => ({ route: b.route, ...startUp(b.outfile, baseline.outfile) }));
  return {
    functions: built.length,
    bare_handler_bytes: baseline.bytes,
    bare_handler_start_ms: starts.map((s) => s.bare.toFixed(1)).join(' / '),
    largest: `${largest?.route} ${largest?.bytes} bytes (${((largest?.bytes ?? 0) / baseline.bytes).toFixed(2)}×)`,
    median_bytes_ratio: ((built[Math.floor(built.length / 2)]?.bytes ?? 0) / baseline.bytes).toFixed(2),
    smallest: `${built.at(-1)?.route} ${built.at(-1)?.bytes} bytes (${((built.at(-1)?.bytes ?? 0) / baseline.bytes).toFixed(2)}×)`,
    start_up: starts
      .map((s) => `${s.route} ${s.bundle.toFixed(1)} ms (${(s.bundle / s.bare).toFixed(2)}×)`)
      .join('; '),
    largest_inputs: inputs.map(([path, bytes]) => `${path} ${bytes}`).join('; '),
  };
};
