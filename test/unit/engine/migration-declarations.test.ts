/** The areas' migrations form one order every table is migrated in (`shared/engine/migration-declarations.ts`). */
import { describe, expect, it } from 'vitest';
import { migration, migrationsInOrder } from '#shared/engine/migration-declarations';
import { migrations } from '#shared/routes';

const step = (version: number, name = `m${version}`) =>
  migration(version, name, { module: 'm.ts', step: 's' });

describe('migration versions', () => {
  it('are put in order whatever order the areas declare them in', () => {
    expect(migrationsInOrder([step(2), step(1), step(3)]).map((m) => m.version)).toEqual([1, 2, 3]);
  });

  it('refuse a version two areas both declare (two branches each adding the next one)', () => {
    expect(() => migrationsInOrder([step(1), step(2, 'a'), step(2, 'b')])).toThrow(/b is version 2/);
  });

  it('refuse a gap, which would record a schema version past a migration never run', () => {
    expect(() => migrationsInOrder([step(1), step(3)])).toThrow(/is version 3/);
  });

  it('are what the composition root assembles: settings for every organisation, users’ index keys, equipment’s status index, the id directory, audit entries’ month buckets, status counts, the vehicle status index, SSO identifiers, exports’ and jobs’ creator index, folder paths and tallies, deliveries by creation, held grants, work nodes’ cost sums, users’ and awards’ filter indexes, the status index of schemes and of work orders and operations, attendances’ month buckets and site and person entries, documents’ and folders’ filter indexes, cost sheets’ and lines’, inventory checks’, street works’, customer interactions’ and appointments’ and briefings’, and site hazards’ filter indexes, audit states removed, schemes’ and work orders’ progress items built, rate codes’, customer contacts’ and qualification types’ filter indexes, teams’ modification-time index, import templates’, customer accounts’, service accounts’, agents’, webhook subscriptions’, device backup requests’ and location imports’ filter indexes', () => {
    expect(migrations.map((m) => [m.version, m.name])).toEqual([
      [1, 'settings-for-every-organisation'],
      [2, 'user-index-keys'],
      [3, 'equipment-status-index'],
      [4, 'id-directory'],
      [5, 'audit-month-buckets'],
      [6, 'equipment-status-counts'],
      [7, 'vehicle-status-index'],
      [8, 'sso-identifier-index'],
      [9, 'exports-by-creator'],
      [10, 'jobs-by-creator'],
      [11, 'folder-paths-and-tallies'],
      [12, 'deliveries-by-creation'],
      [13, 'held-grants'],
      [14, 'work-node-cost-sums'],
      [15, 'user-filter-index'],
      [16, 'award-filter-index'],
      [17, 'scheme-status-index'],
      [18, 'work-status-index'],
      [19, 'attendance-buckets-and-sites'],
      [20, 'document-filter-index'],
      [21, 'folder-filter-index'],
      [22, 'cost-filter-index'],
      [23, 'inventory-check-vehicle-index'],
      [24, 'street-works-filter-index'],
      [25, 'customer-filter-index'],
      [26, 'briefing-filter-index'],
      [27, 'site-hazard-filter-index'],
      [28, 'audit-states'],
      [29, 'scheme-progress-items'],
      [30, 'rate-code-filter-index'],
      [31, 'contact-filter-index'],
      [32, 'qualification-type-filter-index'],
      [33, 'team-filter-index'],
      [34, 'import-template-filter-index'],
      [35, 'account-filter-index'],
      [36, 'service-account-filter-index'],
      [37, 'agent-filter-index'],
      [38, 'subscription-filter-index'],
      [39, 'device-backup-request-filter-index'],
      [40, 'location-import-filter-index'],
    ]);
  });
});
