/**
 * The growth table of `shared/data/README.md` (`npm run growth`): each collection's measured bytes per
 * record (`measured-sizes.json`, from `npm run growth:measure`) against the largest tenant's rates
 * (`assumptions.ts`), and how many years until its item collection reaches 10 GB or its partition key
 * its throughput. `test/unit/data/growth-table.test.ts` checks the committed table is this one.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPOSITORY_ROOT } from '../repository';
import {
  BUCKETED,
  DERIVED,
  LIMITS,
  PEAK_SECONDS,
  PEAK_SHARE,
  RATES,
  type Rate,
  READS_PER_WRITE,
  REFERENCE,
  TENANT,
  WORKING_DAYS,
} from './assumptions';
import { MEASURED_SIZES } from './collections';

const BEGIN = '<!-- growth-table: written by `npm run growth` from infra/growth-table -->';
const END = '<!-- /growth-table -->';
export const README = resolve(REPOSITORY_ROOT, 'shared/data/README.md');

export interface Measured {
  items: number;
  mean_bytes: number;
  local_index_entries_per_item: number;
}
export const loadMeasured = (): Record<string, Measured> =>
  (JSON.parse(readFileSync(MEASURED_SIZES, 'utf8')) as { collections: Record<string, Measured> }).collections;

/** DynamoDB stores 100 bytes of overhead with each item and each index entry; a local index entry is the item again (ALL). */
const collectionBytes = (m: Measured) => (m.mean_bytes + 100) * (1 + m.local_index_entries_per_item);

const tenantCollection = (name: string) => name.startsWith('ORG#<id>#') || name.startsWith('EVENTS#<id>');

const peakWrites = (perYear: number) => ((perYear / WORKING_DAYS) * PEAK_SHARE) / PEAK_SECONDS;

interface Row {
  name: string;
  bytes: number;
  perYear: number;
  standing: boolean;
  writes: number;
  why: string;
}

const rowsOf = (measured: Record<string, Measured>): Row[] => {
  const names = Object.keys(measured).filter(tenantCollection);
  const rate = (name: string): Rate => RATES[name] ?? REFERENCE;
  const made = names.filter((n) => !Object.values(DERIVED).includes(n as never));
  const events = made.reduce((sum, n) => sum + rate(n).perYear * rate(n).events, 0);
  const creates = made.reduce((sum, n) => sum + rate(n).perYear, 0);
  const derived: Record<string, Pick<Row, 'perYear' | 'writes' | 'why'>> = {
    [DERIVED.audit]: {
      perYear: events,
      writes: peakWrites(events),
      why: 'one per event of every type, kept for good',
    },
    [DERIVED.events]: {
      perYear: events,
      writes: peakWrites(events),
      why: 'the outbox: one per event, 35-day TTL',
    },
    [DERIVED.deliveries]: {
      perYear: events,
      writes: peakWrites(events),
      why: 'one per event, one subscription, 30-day TTL',
    },
    [DERIVED.counters]: {
      perYear: 0,
      writes: peakWrites(creates + 2 * events),
      why: "a few items per organisation, and a vehicle's history count: an ADD per create, one or two per audit entry",
    },
  };
  return names.map((name) => {
    const r = rate(name);
    const d = derived[name];
    const perYear = d?.perYear ?? r.perYear;
    const kept = r.keptDays ?? (name === DERIVED.events ? 35 : undefined);
    // A collection under a TTL stands at its days' worth; claims and counters do not grow with the years.
    const standing = kept ? (perYear * kept) / 365 : r.standing;
    return {
      name,
      bytes: collectionBytes(measured[name] as Measured),
      perYear: standing ?? perYear,
      standing: standing !== undefined || name === DERIVED.counters,
      writes: d?.writes ?? peakWrites(r.perYear),
      why: d?.why ?? r.why,
    };
  });
};

const number = (n: number) => Math.round(n).toLocaleString('en-GB');
const cell = (text: string) => text.replace(/\|/g, '\\|');

export const growthTable = (measured: Record<string, Measured>): string => {
  const rows = rowsOf(measured).map((row) => {
    const bytesAYear = row.bytes * row.perYear;
    const buckets = BUCKETED[row.name];
    // A bucket holds one period's records and no more: it passes 10 GB only if one period's do.
    const full = buckets ? bytesAYear / buckets > LIMITS.collectionBytes : false;
    const years =
      row.standing || (buckets && !full)
        ? Number.POSITIVE_INFINITY
        : LIMITS.collectionBytes / Math.max(bytesAYear, 1);
    const reads = row.writes * READS_PER_WRITE;
    const hot = row.writes > LIMITS.writesPerSecond || reads > LIMITS.readsPerSecond;
    const bucket = years < TENANT.years || hot;
    return { ...row, bytesAYear, years, reads, bucket, buckets };
  });
  rows.sort((a, b) => a.years - b.years || (a.name < b.name ? -1 : 1));
  const years = (y: number, buckets?: number) => {
    if (Number.isFinite(y)) return y >= 1_000 ? '> 1,000' : y.toFixed(y < 10 ? 1 : 0);
    return buckets ? `never (bucketed, ${buckets} a year)` : 'never (standing)';
  };
  const lines = rows.map(
    (r) =>
      `| \`${r.name}\` | ${number(r.bytes)} | ${r.standing ? `${number(r.perYear)} standing` : number(r.perYear)} | ${(r.bytesAYear / 2 ** 30).toFixed(r.bytesAYear < 2 ** 30 ? 3 : 1)} | ${years(r.years, r.buckets)} | ${r.writes.toFixed(1)} / ${r.reads.toFixed(0)} | ${r.bucket ? '**bucket**' : ''} | ${cell(r.why)} |`,
  );
  return `${BEGIN}

Largest tenant: ${number(TENANT.workers)} workers, ${number(TENANT.sites)} sites, ${TENANT.years} years, ${WORKING_DAYS} working days a year; peak: ${PEAK_SHARE * 100} % of a working day's writes in ${PEAK_SECONDS / 60} minutes, ${READS_PER_WRITE} reads per write. Bytes per record are measured (\`npm run growth:measure\`: the routes bench's seed through the API, every item's size by AWS's rules, plus 100 bytes an item and a full copy per local index entry: the collection's share of 10 GB); rates are \`infra/growth-table/assumptions.ts\`. Limits: ${LIMITS.collectionBytes / 2 ** 30} GB an item collection, ${number(LIMITS.writesPerSecond)} writes and ${number(LIMITS.readsPerSecond)} reads a second a partition key.

| Collection | Bytes a record (with local index copies) | Records a year | GB a year (standing: held) | Years to 10 GB (a bucket's, when bucketed) | Peak writes / reads a second | | Assumed |
| ---------- | ---------------------------------------: | -------------: | -------------------------: | -----------------------------------------: | ---------------------------: | - | ------- |
${lines.join('\n')}

${END}`;
};

export const withGrowthTable = (readme: string, table: string): string => {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < 0) throw new Error(`shared/data/README.md has no ${BEGIN} … ${END} section`);
  return `${readme.slice(0, start)}${table}${readme.slice(end + END.length)}`;
};
