/**
 * Every migration run again from scratch (the schema version and each migration's progress forgotten), as
 * a deploy that lost its records would: what each step changed, and the partitions written outside the
 * runner's own items. An idempotent set of steps changes nothing and writes nothing else.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/data/clients';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { watchTableWrites } from './table-writes';

export const rerunFromScratch = async (): Promise<{ changed: number[]; written: string[] }> => {
  await Promise.all(
    [
      { pk: 'SCHEMA', sk: 'VERSION' },
      ...migrations.map((m) => ({ pk: `MIGRATION#${m.version}`, sk: 'STATE' })),
    ].map((Key) => documents.send(new DeleteCommand({ TableName: tableName, Key }))),
  );
  const writes = await watchTableWrites();
  try {
    await writes.since();
    const rerun = await migrate();
    const keys = (await writes.since()).map((r) => String(r.dynamodb?.Keys?.pk?.S));
    return {
      changed: rerun.ran.map((m) => m.changed),
      written: keys.filter((pk) => pk !== 'SCHEMA' && !pk.startsWith('MIGRATION#')),
    };
  } finally {
    await writes.stop();
  }
};
