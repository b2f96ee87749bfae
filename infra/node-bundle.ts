/**
 * How every function is bundled (esbuild, ESM for Node 24, minified, the AWS SDK inside): the stack's
 * functions, the bench's bare handler, and the local Lambda endpoint's workers, so that what runs locally
 * and what is measured is what is deployed. Nothing here loads the project's configuration or routes.
 */
import { resolve } from 'node:path';
import { type BuildOptions, buildSync } from 'esbuild';
import { REPOSITORY_ROOT } from './repository';

/** How every function bundle is built, the bench's bare handler included, so their sizes compare. */
export const nodeBundle = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  minify: true,
  // Stack traces name functions and classes; no source maps in the zip (see docs/deploying.md).
  keepNames: true,
  mainFields: ['module', 'main'],
  tsconfig: resolve(REPOSITORY_ROOT, 'tsconfig.json'),
  logLevel: 'silent',
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
} as const satisfies BuildOptions;

/** A function that serves no route: one handler module, bundled alone as `index.mjs`. */
export const bundleEntry = (entry: string, outdir: string) =>
  buildSync({
    ...nodeBundle,
    entryPoints: [resolve(REPOSITORY_ROOT, entry)],
    outfile: resolve(outdir, 'index.mjs'),
  });
