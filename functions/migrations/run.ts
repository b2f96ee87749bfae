/**
 * The migration runner's function: every migration the areas declare (`migrations` in their manifests)
 * above the table's schema version, in order (`shared/engine/migration-runner.ts`). Invoked after each
 * deploy (a CDK trigger, `infra/constructs/migrations.ts`) and by `npm run migrate` locally; not a route.
 * This module runs it under tsx, loading each step's module by its path; the stack's bundle is generated
 * with a literal import per step (`infra/worker-bundles.ts`).
 */
import type { DeclaredMigration, MigrationStep } from '#shared/engine/migration-declarations';
import { type RunOptions, runMigrations } from '#shared/engine/migration-runner';
import { migrations } from '#shared/routes';

export const loadMigration = async (declared: DeclaredMigration): Promise<MigrationStep> =>
  (await import(new URL(`../../${declared.module}`, import.meta.url).href))[declared.step];

export const migrate = (options: RunOptions = {}) => runMigrations(migrations, loadMigration, options);
