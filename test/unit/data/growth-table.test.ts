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
    // Audit states (one per subject ever audited, past 10 GB within a year) are gone: events carry what
    // they changed, and the audit consumer keeps nothing per subject (issue 42, item 7).
    expect(rowOf(table, 'ORG#<id>#audit-states')).toBe('');
    expect(table).not.toContain('**bucket**');
    expect(rowOf(table, 'EVENTS#<id>')).not.toContain('**bucket**');
    // Audit entries, bucketed by month: a month's entries (2.6 GB) are one item collection, which then stops growing.
    expect(rowOf(table, 'ORG#<id>#audit-events')).toContain('never (bucketed, 12 a year)');
    expect(rowOf(table, 'ORG#<id>#audit-events')).not.toContain('**bucket**');
    // Site attendances (25.7 GB a year), bucketed by month since issue 42: 2.1 GB a bucket.
    expect(rowOf(table, 'ORG#<id>#site-attendances')).toContain('never (bucketed, 12 a year)');
    expect(rowOf(table, 'ORG#<id>#site-attendances')).not.toContain('**bucket**');
    // Derived, not typed: cost lines (a million a year) pass 10 GB within ten years once measured larger.
    expect(rowOf(table, 'ORG#<id>#cost-lines')).not.toContain('**bucket**');
    const larger = growthTable({
      ...measured,
      'ORG#<id>#cost-lines': { items: 1, mean_bytes: 2_000, local_index_entries_per_item: 2 },
    });
    expect(rowOf(larger, 'ORG#<id>#cost-lines')).toContain('**bucket**');
  });
});
