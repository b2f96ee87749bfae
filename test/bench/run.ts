/**
 * `npm run bench`: starts DynamoDB Local, loads what it needs, measures side by side in one run, and
 * writes bench/results.md and bench/results.json. Figures are ratios and counts, not timers in tests.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { localDynamoDbClient } from '../../infra/local/clients';
import { type Engine, startDynamoDbLocal, startS3rver, startSesLocal } from '../../infra/local/engines';
import { ensureKeyFile } from '../../infra/local/key-file';
import { createTable } from '../../infra/local/provision';
import { seedEnvironment } from './seed-environment';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const PROPERTIES = Number(process.env.BENCH_PROPERTIES ?? 20_000);
const ROLLUP_LINES = (process.env.BENCH_ROLLUP_LINES ?? '1000,10000,50000').split(',').map(Number);
const JOB_ROWS = Number(process.env.BENCH_JOB_ROWS ?? 1_000_000);
const JOB_HALVES = (process.env.BENCH_JOB_HALVES ?? 'import,export').split(',');
const EXPORT_RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 1);
const SITE_HISTORIES = (process.env.BENCH_SITE_HISTORIES ?? '5000,50000').split(',').map(Number);
const FILTERED_ITEMS = Number(process.env.BENCH_FILTERED_ITEMS ?? 10_000);
const GROWTH_SIZES = (process.env.BENCH_GROWTH_SIZES ?? '10000,100000').split(',').map(Number);
const root = resolve(import.meta.dirname, '../..');
/** `BENCH_ONLY=routes,bundles` runs just those parts (the others are reported as not run). */
const only = process.env.BENCH_ONLY?.split(',');
/** Parts too long for the default run (growth seeds 100,000 items: about 3 minutes), run only when named. */
const SEPARATE = ['growth'];
const runs = (name: string) => (only ? only.includes(name) : !SEPARATE.includes(name));
const part = async <T>(name: string, run: () => Promise<T>): Promise<T | 'not run'> =>
  runs(name) ? run() : 'not run';

const main = async () => {
  const dynamo = await startDynamoDbLocal();
  // Every part that loads the demo data uploads its images (issue 44), the routes part seeds files, jobs
  // and webhooks through the API, and the jobs part writes files through the workers: all need s3rver,
  // the buckets, keys and loopback ports in the configuration before the first module reads it (below).
  const s3: Engine = await startS3rver();
  // The notifications part mails at once and in a digest: to the local SES, whose outbox it counts, never to AWS.
  const ses: Engine | null = runs('notifications') ? await startSesLocal() : null;
  const keys = mkdtempSync(join(tmpdir(), 'bench-keys-'));
  try {
    const seeding = await seedEnvironment(keys, s3.endpoint);
    Object.assign(process.env, {
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      TABLE_NAME: 'bench',
      LOG_LEVEL: 'warn',
      STAGE: 'bench',
      LOCAL_CURSOR_KEY_FILE: ensureKeyFile(join(keys, 'cursor.key')),
      // The bench drives one client far past a production budget (seeding, load): budgets out of its way.
      REQUESTS_PER_MINUTE_ORGANISATION: '1000000',
      REQUESTS_PER_MINUTE_CLIENT: '1000000',
      ...seeding.env,
      ...(ses && { SES_ENDPOINT: ses.endpoint }),
    });
    const client = localDynamoDbClient(dynamo.endpoint, 'bench');
    await createTable(client, 'bench');
    const { benchLocationImport } = await import('./location-import');
    const { benchGeoBox } = await import('./geo-box');
    const { benchCostRollUps } = await import('./cost-rollups');
    const { benchRoutes } = await import('./routes');
    const { benchBundles } = await import('./bundles');
    const { benchOverhead } = await import('./overhead');
    const { benchLoad } = await import('./load');
    const { benchReload } = await import('./reload');
    const { benchJobs } = await import('./jobs');
    const { benchSites } = await import('./sites');
    const { benchBudgets } = await import('./budgets');
    const { benchFilters } = await import('./filters');
    const { benchPeopleFilters } = await import('./filters-people');
    const { benchCustomerFilters } = await import('./filters-customers');
    const { benchWrites } = await import('./writes');
    const { benchAuditBurst } = await import('./audit-burst');
    const { benchGrowth } = await import('./growth');
    const { benchDirectory } = await import('./directory');
    const { benchNotifications } = await import('./notifications');
    const { benchImages } = await import('./images');
    const results = {
      machine: { cpus: cpus().length, memory_gib: Math.round(totalmem() / 2 ** 30), node: process.version },
      date: new Date().toISOString(),
      routes: await part('routes', () => benchRoutes(seeding.apiPort)),
      bundles: await part('bundles', benchBundles),
      overhead: await part('overhead', () => benchOverhead()),
      load: await part('load', benchLoad),
      location_import: await part('imports', () => benchLocationImport(ROWS)),
      geo_box: await part('geo', () => benchGeoBox(PROPERTIES)),
      cost_rollups: await part('rollups', () => benchCostRollUps(ROLLUP_LINES)),
      reload: await part('reload', benchReload),
      jobs: await part('jobs', () => benchJobs(JOB_ROWS, { halves: JOB_HALVES, exportRuns: EXPORT_RUNS })),
      sites: await part('sites', () => benchSites(SITE_HISTORIES)),
      budgets: await part('budgets', benchBudgets),
      filters: await part('filters', async () => ({
        ...(await benchFilters(FILTERED_ITEMS)),
        ...(await benchPeopleFilters(FILTERED_ITEMS)),
        ...(await benchCustomerFilters(FILTERED_ITEMS)),
      })),
      writes: await part('writes', () => benchWrites(seeding.apiPort)),
      audit: await part('audit', () => benchAuditBurst(seeding.apiPort)),
      growth: await part('growth', () => benchGrowth(GROWTH_SIZES)),
      directory: await part('directory', () => benchDirectory()),
      notifications: await part('notifications', benchNotifications),
      images: await part('images', benchImages),
    };
    mkdirSync(resolve(root, 'bench'), { recursive: true });
    // A partial run (BENCH_ONLY) never overwrites the committed full results.
    const name = only ? 'results-partial' : 'results';
    writeFileSync(resolve(root, `bench/${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(resolve(root, `bench/${name}.md`), report(results));
    process.stdout.write(report(results));
  } finally {
    await s3.stop();
    await ses?.stop();
    rmSync(keys, { recursive: true, force: true });
    await dynamo.stop();
  }
};

type Figures = Record<string, unknown> | 'not run';

const report = (r: {
  machine: { cpus: number; memory_gib: number; node: string };
  date: string;
  routes: Awaited<ReturnType<typeof import('./routes').benchRoutes>> | 'not run';
  bundles: Figures;
  overhead: Figures;
  load: Figures;
  location_import: Figures;
  geo_box: Figures;
  cost_rollups: Figures;
  reload: Figures;
  jobs: { import: Figures; export: Figures } | 'not run';
  sites: Figures;
  budgets: Figures;
  filters: Figures;
  writes: Figures;
  audit: Figures;
  growth: Figures;
  directory: Figures;
  notifications: Figures;
  images: Figures;
}) => {
  const rows = (o: Figures) =>
    o === 'not run'
      ? '| (not run) | |'
      : Object.entries(o)
          .map(([k, v]) => `| ${k} | ${v} |`)
          .join('\n');
  /** A request's figures in columns; a create's, as written, in the second. */
  const directoryRows = (o: Figures) =>
    o === 'not run'
      ? '| (not run) | | | | |'
      : Object.entries(o)
          .map(([k, v]) =>
            typeof v === 'object' && v !== null
              ? `| ${k} | ${Object.values(v).join(' | ')} |`
              : `| ${k} | ${v} | | | |`,
          )
          .join('\n');
  const depth = r.routes === 'not run' ? undefined : r.routes.depth;
  const depthRows = !depth
    ? '(not run)'
    : `Page ${depth.page} of ${depth.records.toLocaleString('en-GB')} streets (25 a page, sort=name), by \`page[offset]\` and by \`page[cursor]\` (walking \`links.next\` to it); items read count a Query's scanned items and each key asked, besides authentication.

| page | items read | items needed | data calls | read capacity units |
|---|---|---|---|---|
${(['offset_page_1', 'offset_page_400', 'cursor_page_1', 'cursor_page_400'] as const).map((k) => `| ${k.replaceAll('_', ' ')} | ${depth[k].items_read} | ${depth[k].items_needed} | ${depth[k].data_calls} | ${depth[k].rcu.toFixed(1)} |`).join('\n')}

Items read, page ${depth.page} ÷ page 1: by offset ${depth.offset_items_read_page_400_vs_page_1}×, by cursor ${depth.cursor_items_read_page_400_vs_page_1}× (goal: ≤ 1.1×).`;
  const routeRows =
    r.routes === 'not run'
      ? '(not run)'
      : `${r.routes.routes_measured} collection routes, ${r.routes.combinations} route × include combinations; DynamoDB calls per request besides authentication (${r.routes.auth_calls_per_request} BatchGetItem of session and principal), at page sizes 1 / 25 / 100. Scans: ${r.routes.scans}. Prices: ${r.routes.prices}. Growing with page size (more calls for a bigger page that answers no new type of resource): ${r.routes.growing_with_page_size.length === 0 ? 'none' : r.routes.growing_with_page_size.join(', ')}. Items read (a Query's scanned items, filtered away or not; each key asked of GetItem or BatchGetItem) or read capacity above 1.1× what the answer needs (its resources, data and included, and the counters its total comes from): ${r.routes.over_1_1_times_needed.length === 0 ? 'none' : r.routes.over_1_1_times_needed.join(', ')}.

| route | records | include | data calls | resources returned | items read | items needed | read ÷ needed | read capacity units | data RCU ÷ needed | over 1.1×: why | ms at 25 | $ per million calls at 25 |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
${r.routes.rows.map((x) => ('data_calls' in x ? `| ${x.route} | ${x.records} | ${x.include} | ${x.data_calls} | ${x.returned} | ${x.items_read} | ${x.items_needed} | ${x.read_vs_needed} | ${x.rcu} | ${x.rcu_vs_needed} | ${x.why} | ${x.ms_at_25} | ${x.dollars_per_million_at_25} |` : `| ${x.route} | | ${x.status} | | | | | | | | | | |`)).join('\n')}`;
  return `# Benchmarks

Run by \`npm run bench\` on ${r.machine.cpus} cores, ${r.machine.memory_gib} GiB, Node ${r.machine.node}, ${r.date}, against DynamoDB Local.
Ratios compare two measurements taken in the same run.

## DynamoDB round trips and read capacity per request (issue 9)

${routeRows}

## Deep pages: offset against cursor (issue 19)

${depthRows}

## Handler overhead: GET equipment by id against a bare GetCommand (issue 9)

| figure | value |
|---|---|
${rows(r.overhead)}

## Load through the local adapter (autocannon, issue 9)

| figure | value |
|---|---|
${rows(r.load)}

## Bundle size and start-up against a bare GetCommand handler (issue 9)

| figure | value |
|---|---|
${rows(r.bundles)}

## Location import (issue 4)

| figure | value |
|---|---|
${rows(r.location_import)}

## Bounding-box query through the geohash index (issue 4)

| figure | value |
|---|---|
${rows(r.geo_box)}

## Cost roll-up, depth=all over 1,000 nodes (issue 5)

| figure | value |
|---|---|
${rows(r.cost_rollups)}

## Hot reload: a saved handler's first answer through \`npm start\` (issue 16)

| figure | value |
|---|---|
${rows(r.reload)}

## Jobs: a location import as a job against a bare BatchWriteItem loop (issue 18)

| figure | value |
|---|---|
${rows(r.jobs === 'not run' ? 'not run' : r.jobs.import)}

## Jobs: an export as a job against a bare Query loop (issue 18)

| figure | value |
|---|---|
${rows(r.jobs === 'not run' ? 'not run' : r.jobs.export)}

## Site attendances and qualifications: who is on site now, the roll call, an evaluation of 100 people (issue 22)

| figure | value |
|---|---|
${rows(r.sites)}

## Request budgets: a 1,200-a-minute client over many cold containers (issue 42)

Containers simulated in one process (each its own leases), leasing from DynamoDB Local.

| figure | value |
|---|---|
${rows(r.budgets)}
## Filtered pages of 10,000 each of equipment items, locations, vehicles, users, qualification awards, work orders, operations, folders, comments, customer interactions and appointments, and a folder of 10,000 documents, page size 25 (issue 42)

| figure | value |
|---|---|
${rows(r.filters)}

## Write units per create, update and delete, the request and its events' consumers (issue 42)

| figure | value |
|---|---|
${rows(r.writes)}

## The audit of a 300-create burst, serial and a batch's subjects side by side (issue 42)

| figure | value |
|---|---|
${rows(r.audit)}

## Flat reads at 10,000 and 100,000 equipment items, page size 25 (issue 42, item 4)

One organisation's items seeded in the stored shape; the minimum is the items returned and, for an unfiltered total, the counter item.

| figure | value |
|---|---|
${rows(r.growth)}

## Paths with a bare id: a caller in 1, 10 and 100 organisations (issue 42, item 2)

Warm handler, session; DynamoDB round trips (calls made) and keys asked per request, credentials included,
grant evaluation (cached) and budget leases left out. Sequential round trips: the calls the request waits
through one after another, the latency a client sees (a call that starts after an earlier one ended waits
for it; one that starts before every earlier one ended runs beside them; \`test/support/round-trips.ts\`).
\`no_entry_as_before\`: a record without its id directory entry, read as every record was before it
(looked up in each organisation the caller reads). The children list is an empty folder's.

| figure | round trips (calls) | sequential round trips | keys | feature switches |
|---|---|---|---|---|
${directoryRows(r.directory)}

## The inbox: 10,000 envelopes for one user, marks, a fan-out and a digest (issue 43)

Through the notifications area's functions in process; items read count a Query's scanned items and each
key asked; a page's minimum is what it returns plus the inbox's state item. The consumer rows are
\`deliverNotifications\` handed one \`notice.created\` (a safety notice to everyone of an organisation of
1,000 active users, sent by a service account), then the same event again; every call is counted, a refused
conditional write too; SES sends are what the emulator's outbox received. The minimum for a fresh event:
1,000 recipients read (10 Query pages of the users' status index), their 1,000 preferences (10
BatchGetItem), each inbox's state item and envelope asked (2,000 keys, 20 BatchGetItem, what a put if
absent with exact counts needs), 2,000 items written in 20 TransactWriteItems (the envelope and its
inbox's state item each: 100 items a transaction), each mail's outcome on its envelope (1,000 writes) and
1,000 SES sends (one personal mail each). The digest: 500 envelopes
written into one hourly window by \`writeEnvelopes\`, then the \`notification-digest\` work on its due entry
(the runner's own reads of the due index aside), and a whole run after it.

| figure | value |
|---|---|
${rows(r.notifications)}

## Images: the worker's time and peak memory for a 12-megapixel JPEG and HEIC, its variants, its asset (issue 44)

The processing module bundled as the worker is and run in a fresh Node process per photo (V8 heap capped
at \`heap_cap_mib\`), with this machine's build of sharp's native packages in place of the linux-arm64
ones the asset carries: inspection and rendering of all three variants, cold (the process's first photo)
and warm (its second). Peak RSS is the process's resident high-water mark, native pixel buffers and the
HEIC decoder's wasm memory included; headroom is what a 1,024 MB function has left. The asset is the
deployed worker's, zipped as CDK uploads it. The images area's own function is in the bundle table above.

| figure | value |
|---|---|
${rows(r.images)}
`;
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
