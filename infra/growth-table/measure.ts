/**
 * `npm run growth:measure`: the bytes each collection's records take, measured rather than guessed. Starts
 * DynamoDB Local and s3rver, loads the demo data and the routes bench's seed (every collection route
 * filled through the HTTP API, audit entries and events written by the real consumers), then scans the
 * table and writes `measured-sizes.json`: per collection (a partition key with its ids written `<id>`),
 * the items seen, their mean size by AWS's rules (`checkItem`), and the local index entries they carry
 * (each an item's copy: the indexes project ALL). `npm run growth` turns it into the README's table.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AttributeValue, ScanCommand } from '@aws-sdk/client-dynamodb';
import { seedEnvironment } from '../../test/bench/seed-environment';
import { localDynamoDbClient } from '../local/clients';
import { startDynamoDbLocal, startS3rver } from '../local/engines';
import { ensureKeyFile } from '../local/key-file';
import { createTable } from '../local/provision';
import { collectionOf, MEASURED_SIZES } from './collections';

const dynamo = await startDynamoDbLocal();
const s3 = await startS3rver();
const keys = mkdtempSync(join(tmpdir(), 'growth-keys-'));
try {
  const seeding = await seedEnvironment(keys, s3.endpoint);
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    TABLE_NAME: 'growth',
    LOG_LEVEL: 'warn',
    STAGE: 'growth',
    LOCAL_CURSOR_KEY_FILE: ensureKeyFile(join(keys, 'cursor.key')),
    REQUESTS_PER_MINUTE_ORGANISATION: '1000000',
    REQUESTS_PER_MINUTE_CLIENT: '1000000',
    ...seeding.env,
  });
  const client = localDynamoDbClient(dynamo.endpoint, 'growth');
  await createTable(client, 'growth');
  // Loaded after the environment is set: the configuration is read once, at first import.
  const { loadDemoData } = await import('../local/demo-data');
  const { startLocalApi } = await import('../local/http-adapter');
  const { seedRoutes } = await import('../../test/bench/seed-routes');
  const { checkItem } = await import('#shared/data/storage-limits');
  const demo = await loadDemoData();
  const org = demo.organisations[0];
  if (!org?.user) throw new Error('demo data has no session user');
  const { server, url } = await startLocalApi(seeding.apiPort);
  try {
    await seedRoutes({ url, token: org.user.session_token, orgId: org.id });
  } finally {
    server.close();
  }
  const sizes = new Map<string, { items: number; bytes: number; local_index_entries: number }>();
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: 'growth', ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      const name = collectionOf(item.pk?.S ?? '');
      const seen = sizes.get(name) ?? { items: 0, bytes: 0, local_index_entries: 0 };
      seen.items += 1;
      seen.bytes += checkItem(item);
      seen.local_index_entries += (item.lsi1 ? 1 : 0) + (item.lsi2 ? 1 : 0);
      sizes.set(name, seen);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  const measured = Object.fromEntries(
    [...sizes.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, s]) => [
        name,
        {
          items: s.items,
          mean_bytes: Math.round(s.bytes / s.items),
          local_index_entries_per_item: Number((s.local_index_entries / s.items).toFixed(2)),
        },
      ]),
  );
  writeFileSync(
    MEASURED_SIZES,
    `${JSON.stringify({ measured_at: new Date().toISOString(), collections: measured }, null, 2)}\n`,
  );
  process.stdout.write(`${sizes.size} collections measured into ${MEASURED_SIZES}\n`);
} finally {
  await s3.stop();
  rmSync(keys, { recursive: true, force: true });
  await dynamo.stop();
}
process.exit(0);
