/**
 * What was written to the test file's table since the last look, read from the table's stream (DynamoDB
 * Local's, polled as `npm start` polls it: infra/local/event-stream.ts). A test that must know whether
 * some items changed after each step reads the keys written, instead of scanning the whole table: every
 * write that changes an item puts one record on the stream (INSERT, MODIFY or REMOVE, by any API:
 * PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems, PartiQL); a write that changes
 * nothing puts none, in DynamoDB and in DynamoDB Local alike.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { startEventStream } from '../../infra/local/event-stream';

export interface TableWrites {
  /** Every record committed since the last call (the first call: since the table was made). */
  since(): Promise<DynamoDBRecord[]>;
  stop(): Promise<void>;
}

export const watchTableWrites = async (): Promise<TableWrites> => {
  const written: DynamoDBRecord[] = [];
  // A failed read of the stream must fail the look, not pass for a stream with nothing new.
  const failures: string[] = [];
  const stream = await startEventStream({
    endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName: process.env.TABLE_NAME ?? '',
    handler: async ({ Records }) => {
      written.push(...Records);
      return { batchItemFailures: [] };
    },
    // `since` reads the stream itself; polling between looks would only compete for the cores.
    intervalMs: 5_000,
    log: (line) => failures.push(line),
  });
  return {
    since: async () => {
      await stream.drain();
      if (failures.length > 0) throw new Error(failures.splice(0).join('\n'));
      return written.splice(0);
    },
    stop: () => stream.stop(),
  };
};
