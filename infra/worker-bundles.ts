/**
 * How the functions that run the areas' named code are built: the stream's event consumer, the job
 * worker, the due-work runner and the migration runner. Each entry is generated from the composition root's lists (one literal
 * `import()` per consumer's or kind's module, so esbuild knows every one, as an area's entry knows its
 * routes' handlers) and bundled with code splitting, so a job worker loads only its job's kind and a run
 * only the work of the kinds that are due. Under tsx the same functions load the modules by their paths
 * (`functions/events/consume.ts`, `functions/jobs/work.ts`, `functions/due-work/run.ts`).
 */
import { type BuildOptions, buildSync } from 'esbuild';
import type { DueWorkKind } from '#shared/engine/due-work-kind';
import type { DeclaredConsumer } from '#shared/engine/event-consumers';
import type { DeclaredJobKind } from '#shared/engine/job-kinds';
import type { DeclaredMigration } from '#shared/engine/migration-declarations';
import { dueWorkKinds, eventConsumers, jobKinds, migrations } from '#shared/routes';
import { nodeBundle } from './node-bundle';
import { REPOSITORY_ROOT } from './repository';

/** `name: () => import(module).then((m) => m[export])`, one line per named export. */
const loaders = (named: readonly { name: string; module: string; export: string }[]) =>
  `const loaders = {\n${named
    .map(
      (n) =>
        `  ${JSON.stringify(n.name)}: () => import(${JSON.stringify(`./${n.module}`)}).then((m) => m[${JSON.stringify(n.export)}]),`,
    )
    .join('\n')}\n};`;

/** The stream function's entry: every consumer loaded by a literal import, run in the root's order. */
export const consumerEntrySource = (consumers: readonly DeclaredConsumer[] = eventConsumers): string =>
  [
    "import { eventConsumers } from './shared/routes.ts';",
    "import { loadConsumers } from './shared/engine/event-consumers.ts';",
    "import { consumeWith } from './functions/events/consume-batch.ts';",
    loaders(consumers.map((c) => ({ name: c.name, module: c.module, export: c.handle }))),
    "/** A consumer's handler, by its name (the bundle's test loads each one). */",
    'export const loadedOf = (name) => loaders[name]();',
    'export const handler = consumeWith(() => loadConsumers(eventConsumers, (c) => loadedOf(c.name)));',
  ].join('\n');

/** The job worker's entry: each kind's work loaded by a literal import at its first job. */
export const jobWorkerEntrySource = (kinds: readonly DeclaredJobKind[] = jobKinds): string =>
  [
    "import { jobKinds } from './shared/routes.ts';",
    "import { jobKindsFrom } from './shared/engine/job-kinds.ts';",
    "import { runJob } from './functions/jobs/worker.ts';",
    loaders(kinds.map((k) => ({ name: k.name, module: k.module, export: k.kind }))),
    "/** A kind's work, by its name (the bundle's test loads each one). */",
    'export const loadedOf = (name) => loaders[name]();',
    'const kindOf = jobKindsFrom(jobKinds, (kind) => loadedOf(kind.name));',
    'export const handler = async (event) => runJob(event, kindOf);',
  ].join('\n');

/** The due-work runner's entry: each kind's work loaded by a literal import when an entry of it is due. */
export const dueWorkEntrySource = (kinds: readonly DueWorkKind[] = dueWorkKinds): string =>
  [
    "import { runDueWork } from './shared/engine/due-work-runner.ts';",
    "import { dueWorkKinds } from './shared/routes.ts';",
    loaders(kinds.map((k) => ({ name: k.name, module: k.module, export: k.run }))),
    "/** A kind's work, by its name (the bundle's test loads each one). */",
    'export const workOf = (name) => loaders[name]();',
    'export const handler = async () => runDueWork(dueWorkKinds, (kind) => workOf(kind.name), Date.now());',
  ].join('\n');

/**
 * The migration runner's entry: each step loaded by a literal import when its migration runs, served as
 * the stack's post-deploy custom resource (`functions/migrations/after-deploy.ts`).
 */
export const migrationsEntrySource = (declared: readonly DeclaredMigration[] = migrations): string =>
  [
    "import { runMigrations } from './shared/engine/migration-runner.ts';",
    "import { migrations } from './shared/routes.ts';",
    "import { afterDeploy } from './functions/migrations/after-deploy.ts';",
    loaders(declared.map((m) => ({ name: m.name, module: m.module, export: m.step }))),
    "/** A migration's step, by its name (the bundle's test loads each one). */",
    'export const stepOf = (name) => loaders[name]();',
    'export const handler = afterDeploy((options) => runMigrations(migrations, (m) => stepOf(m.name), options));',
  ].join('\n');

const generatedBundle = (contents: string, sourcefile: string, outdir: string): BuildOptions => ({
  ...nodeBundle,
  stdin: { contents, resolveDir: REPOSITORY_ROOT, loader: 'ts', sourcefile },
  splitting: true,
  outdir,
  entryNames: 'index',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
});

/** The event consumer's bundle (`index.mjs` exporting `handler`, and its chunks) in `outdir`. */
export const bundleConsumers = (outdir: string) =>
  buildSync(generatedBundle(consumerEntrySource(), 'consume.ts', outdir));

/** The job worker's bundle (`index.mjs` exporting `handler`, and its chunks) in `outdir`. */
export const bundleJobWorker = (outdir: string) =>
  buildSync(generatedBundle(jobWorkerEntrySource(), 'work.ts', outdir));

/** The due-work runner's bundle (`index.mjs` exporting `handler`, and its chunks) in `outdir`. */
export const bundleDueWork = (outdir: string) =>
  buildSync(generatedBundle(dueWorkEntrySource(), 'due-work.ts', outdir));

/** The migration runner's bundle (`index.mjs` exporting `handler`, and its chunks) in `outdir`. */
export const bundleMigrations = (outdir: string) =>
  buildSync(generatedBundle(migrationsEntrySource(), 'migrate.ts', outdir));
