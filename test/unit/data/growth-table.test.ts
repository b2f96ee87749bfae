/**
 * The growth table of shared/data/README.md is derived, never typed: written from the measured sizes and
 * the assumptions (`npm run growth`), and flagging for buckets what passes a limit within ten years.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { growthTable, loadMeasured, README, withGrowthTable } from '../../../infra/growth-table/table';

const rowOf = (table: string, collection: string) =>
  table.split('\n').find((line) => line.startsWith(`| \`${collection}\` |`)) ?? '';

describe('the growth table', () => {
  it("shared/data/README.md's growth table is the one the measured sizes and assumptions write (npm run growth)", () => {
    const readme = readFileSync(README, 'utf8');
    expect(withGrowthTable(readme, growthTable(loadMeasured()))).toBe(readme);
  });

  it('flags a collection for buckets when it passes 10 GB within ten years, and not one that stands under a TTL', () => {
    const measured = loadMeasured();
    const table = growthTable(measured);
    expect(rowOf(table, 'ORG#<id>#audit-events')).toContain('**bucket**');
    expect(rowOf(table, 'EVENTS#<id>')).not.toContain('**bucket**');
    // Derived, not typed: without attendances' events and with tiny entries, audit stays under 10 GB.
    const { 'ORG#<id>#site-attendances': _, ...others } = measured;
    const small = growthTable({
      ...others,
      'ORG#<id>#audit-events': { items: 1, mean_bytes: 1, local_index_entries_per_item: 0 },
    });
    expect(rowOf(small, 'ORG#<id>#audit-events')).not.toContain('**bucket**');
  });
});
