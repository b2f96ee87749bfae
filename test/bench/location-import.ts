/**
 * 100,000 CSV rows through the import, against a bare BatchWriteItem loop writing the same items (each
 * location and its reference claim) in the same run: rows per second, items per write call, rows lost,
 * and what a re-import of the same file writes. The import also parses the CSV and reads the existing
 * reference claims (BatchGetItem), which the bare loop does not.
 */
import { performance } from 'node:perf_hooks';
import { locations } from '#functions/places/definitions';
import { importLocations } from '#functions/places/location-imports/writes';
import { uuidv7 } from '#shared/data/ids';
import { queryItems } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import { collectionPartition } from '#shared/data/stored-resource';
import { bareBatchWrite, locationItemsOf } from './bare-loops';

const csvOf = (rows: number) =>
  ['reference,name,address,latitude,longitude']
    .concat(
      Array.from(
        { length: rows },
        (_, i) =>
          `R${i},Site ${i},${i} Example Road,${(50 + (i % 900) / 100).toFixed(4)},${(-5 + (i % 700) / 100).toFixed(4)}`,
      ),
    )
    .join('\n');

export const benchLocationImport = async (rows: number) => {
  const csv = csvOf(rows);
  const importOrg = uuidv7();
  const bareOrg = uuidv7();

  // The same items the import writes: each location (address and point too) and its reference's claim.
  const bareItems = locationItemsOf(csv, bareOrg);
  const bareStart = performance.now();
  const bareCalls = await bareBatchWrite(bareItems);
  const bareSeconds = (performance.now() - bareStart) / 1000;

  const start = performance.now();
  const first = await importLocations(
    scopeOf([importOrg]),
    importOrg,
    { csv, source: { kind: 'bench' } },
    null,
  );
  const importSeconds = (performance.now() - start) / 1000;

  const stored = await queryItems({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': collectionPartition(importOrg, locations.type) },
    ProjectionExpression: 'pk',
    // Pages of 2,000: DynamoDB Local reads the rest of the partition for a page without a Limit.
    Limit: 2_000,
  });

  const againStart = performance.now();
  const again = await importLocations(
    scopeOf([importOrg]),
    importOrg,
    { csv, source: { kind: 'bench' } },
    null,
  );
  const againSeconds = (performance.now() - againStart) / 1000;

  const counts = first.attributes.counts as { created: number };
  const writeCalls = Number(first.meta.write_calls);
  return {
    rows,
    import_rows_per_second: Math.round(rows / importSeconds),
    bare_batch_write_rows_per_second: Math.round(rows / bareSeconds),
    import_to_bare_ratio: Number((bareSeconds / importSeconds).toFixed(2)),
    import_write_calls: writeCalls,
    items_written: counts.created * 2,
    items_per_write_call: Number(((counts.created * 2) / writeCalls).toFixed(2)),
    bare_items_per_write_call: Number((bareItems.length / bareCalls).toFixed(2)),
    rows_created: counts.created,
    rows_stored: stored.length,
    rows_lost: rows - stored.length,
    reimport_write_calls: Number(again.meta.write_calls),
    reimport_unchanged: (again.attributes.counts as { unchanged: number }).unchanged,
    reimport_seconds: Number(againSeconds.toFixed(1)),
  };
};
