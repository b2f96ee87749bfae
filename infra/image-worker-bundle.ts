/**
 * The image worker's asset (issue 44): its handler bundled as every function is (`node-bundle.ts`: sharp's
 * JavaScript, exifr and the HEIC decoder's wasm inside `index.mjs`), and beside it the one thing esbuild
 * cannot bundle, sharp's native binding with libvips, for Lambda's platform (linux-arm64, glibc):
 *
 *   index.mjs
 *   node_modules/@img/sharp-linux-arm64/        sharp-linux-arm64-<version>.node (what sharp requires at run time)
 *   node_modules/@img/sharp-libvips-linux-arm64/ libvips-cpp.so (found by the binding's rpath, ../../)
 *
 * The two packages come from `npm install` (`infra/native/linux-arm64.ts`, integrity checked against the
 * lock), so synth stays offline; a missing or stale one fails synth with what to run.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { LINUX_ARM64_MODULES, lockedPackages, unpackedAt } from './native/linux-arm64';
import { nodeBundle } from './node-bundle';
import { REPOSITORY_ROOT } from './repository';

/** The handler module CDK deploys as the image worker (the images area's: it stores what processing gives). */
export const IMAGE_WORKER_ENTRY = 'functions/images/worker.ts';

/** Copies the linux-arm64 packages into `outdir/node_modules`, as sharp's `require` will look for them. */
export const copyLinuxArm64Packages = (outdir: string) => {
  for (const locked of lockedPackages()) {
    const { folder, current } = unpackedAt(locked);
    if (!current)
      throw new Error(
        `${locked.name}@${locked.version} for linux-arm64 is not in ${LINUX_ARM64_MODULES}: run npm install (its postinstall fetches it)`,
      );
    const target = join(outdir, 'node_modules', locked.name);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(folder, target, { recursive: true, filter: (source) => !source.endsWith('.lock-integrity') });
  }
};

/**
 * The image worker's bundle (`index.mjs` exporting `handler`) and its native packages, in `outdir`. The
 * HEIC decoder (libheif compiled by Emscripten, CommonJS) reads `__dirname` when it starts under Node,
 * which an ES module does not define: the banner defines it, as the house banner defines `require`.
 */
export const bundleImageWorker = (outdir: string, entry = IMAGE_WORKER_ENTRY) => {
  buildSync({
    ...nodeBundle,
    banner: {
      js: `${nodeBundle.banner.js} import { fileURLToPath as __toPath } from 'node:url'; const __filename = __toPath(import.meta.url); const __dirname = __toPath(new URL('.', import.meta.url));`,
    },
    entryPoints: [resolve(REPOSITORY_ROOT, entry)],
    outfile: resolve(outdir, 'index.mjs'),
  });
  copyLinuxArm64Packages(outdir);
};
