/**
 * `npm run bench`: starts DynamoDB Local, loads what it needs, measures side by side in one run, and
 * writes bench/results.md and bench/results.json. Figures are ratios and counts, not timers in tests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { localDynamoDbClient } from '../../infra/local/clients';
import { startDynamoDbLocal } from '../../infra/local/engines';
import { createTable } from '../../infra/local/provision';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const PROPERTIES = Number(process.env.BENCH_PROPERTIES ?? 20_000);
const ROLLUP_LINES = (process.env.BENCH_ROLLUP_LINES ?? '1000,10000,50000').split(',').map(Number);
const root = resolve(import.meta.dirname, '../..');

const main = async () => {
  const dynamo = await startDynamoDbLocal();
  try {
    Object.assign(process.env, {
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      TABLE_NAME: 'bench',
      LOG_LEVEL: 'warn',
      STAGE: 'bench',
    });
    const client = localDynamoDbClient(dynamo.endpoint);
    await createTable(client, 'bench');
    const { benchLocationImport } = await import('./location-import');
    const { benchGeoBox } = await import('./geo-box');
    const { benchCostRollUps } = await import('./cost-rollups');
    const results = {
      machine: { cpus: cpus().length, memory_gib: Math.round(totalmem() / 2 ** 30), node: process.version },
      date: new Date().toISOString(),
      location_import: await benchLocationImport(ROWS),
      geo_box: await benchGeoBox(PROPERTIES),
      cost_rollups: await benchCostRollUps(ROLLUP_LINES),
    };
    mkdirSync(resolve(root, 'bench'), { recursive: true });
    writeFileSync(resolve(root, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(resolve(root, 'bench/results.md'), report(results));
    process.stdout.write(report(results));
  } finally {
    await dynamo.stop();
  }
};

const report = (r: {
  machine: { cpus: number; memory_gib: number; node: string };
  date: string;
  location_import: Record<string, number | string | boolean>;
  geo_box: Record<string, number | string>;
  cost_rollups: Record<string, number | string>;
}) => {
  const rows = (o: Record<string, unknown>) =>
    Object.entries(o)
      .map(([k, v]) => `| ${k} | ${v} |`)
      .join('\n');
  return `# Benchmarks

Run by \`npm run bench\` on ${r.machine.cpus} cores, ${r.machine.memory_gib} GiB, Node ${r.machine.node}, ${r.date}, against DynamoDB Local.
Ratios compare two measurements taken in the same run.

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
`;
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
