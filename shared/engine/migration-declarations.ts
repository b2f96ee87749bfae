/**
 * Migrations: a stored shape changes only with one. An area declares each in its manifest
 * (`defineArea(…, { migrations })`) as a version (one number line across the areas, checked where they
 * are assembled), a name, and the module and export of its step, named, not imported, as job kinds
 * are. A step selects the items it fixes (a Scan filter) and fixes a page of them at a time; the runner
 * walks the table, saving after each page where the walk stopped (`shared/data/migrations.ts`), so a
 * run cut short resumes from its last page, and records the schema version once a migration has
 * finished. Steps are idempotent: a record already in the new shape is left alone, so a page redone
 * after a crash (fixed, its progress unsaved) changes nothing.
 */
import type { ItemSelection } from '../data/migrations';
import type { StoredResource } from '../data/stored-resource';

export interface DeclaredMigration {
  /** Its place in the one order every table is migrated in: 1, 2, 3, … across the areas. */
  version: number;
  name: string;
  /** The module holding the step, from the repository root (`functions/<area>/migrations/<name>.ts`). */
  module: string;
  /** Its export that is the step (a `MigrationStep`). */
  step: string;
}

export const migration = (
  version: number,
  name: string,
  step: { module: string; step: string },
): DeclaredMigration => ({ version, name, ...step });

export interface MigrationStep {
  /** The items it may have to fix: every other item is never handed to it. */
  select: ItemSelection;
  /** Fixes what needs it among one page of selected items; answers how many records it changed. */
  migrate(items: StoredResource[], now: Date): Promise<number>;
}

/** Loads a step: a literal import in the runner's bundle, its module's path under tsx. */
export type MigrationLoader = (migration: DeclaredMigration) => Promise<MigrationStep>;

/** The areas' migrations in order, refusing two of one version or a gap (a table would skip one). */
export const migrationsInOrder = (declared: readonly DeclaredMigration[]): DeclaredMigration[] => {
  const ordered = [...declared].sort((a, b) => a.version - b.version);
  ordered.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(
        `migration ${m.name} is version ${m.version}: versions run 1, 2, 3, … without gaps or repeats`,
      );
  });
  return ordered;
};
