/**
 * How the due-work runner is built: an entry generated from the areas' due-work kinds (one literal
 * `import()` per kind's module, so esbuild knows every kind's work, as an area's entry knows its routes'
 * handlers), bundled with code splitting, so a run loads only the work of the kinds that are due.
 */
import { type BuildOptions, buildSync } from 'esbuild';
import type { DueWorkKind } from '#shared/engine/due-work-kind';
import { dueWorkKinds } from '#shared/routes';
import { nodeBundle } from './node-bundle';
import { REPOSITORY_ROOT } from './repository';

/** The entry module's source: the runner, loading each kind's work by a literal import. */
export const dueWorkEntrySource = (kinds: readonly DueWorkKind[] = dueWorkKinds): string => {
  const loaders = kinds.map(
    (kind) =>
      `  ${JSON.stringify(kind.name)}: () => import(${JSON.stringify(`./${kind.module}`)}).then((m) => m[${JSON.stringify(kind.run)}]),`,
  );
  return [
    "import { runDueWork } from './shared/engine/due-work-runner.ts';",
    "import { dueWorkKinds } from './shared/routes.ts';",
    `const loaders = {\n${loaders.join('\n')}\n};`,
    "/** A kind's work, by its name (the bundle's test loads each one). */",
    'export const workOf = (name) => loaders[name]();',
    'export const handler = async () => runDueWork(dueWorkKinds, (kind) => workOf(kind.name), Date.now());',
  ].join('\n');
};

export const dueWorkBundleOptions = (outdir: string): BuildOptions => ({
  ...nodeBundle,
  stdin: {
    contents: dueWorkEntrySource(),
    resolveDir: REPOSITORY_ROOT,
    loader: 'ts',
    sourcefile: 'due-work.ts',
  },
  splitting: true,
  outdir,
  entryNames: 'index',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
});

/** The runner's bundle (`index.mjs` exporting `handler`, and its chunks) in `outdir`. */
export const bundleDueWork = (outdir: string) => buildSync(dueWorkBundleOptions(outdir));
