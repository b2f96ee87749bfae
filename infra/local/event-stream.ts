/**
 * Locally, what Lambda's event source mapping does in AWS: reads the table's stream on DynamoDB Local,
 * every shard from its oldest record, and hands each batch, in the shape Lambda gives it, to the same
 * consumer module the stack deploys (`functions/events/consume.ts`). A batch that reports a failed record
 * is read again from that record, after a pause, a few times; then, as the mapping would send it to the
 * dead-letter queue, it is logged and passed.
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { assertLoopback, localDatabaseKey, localDynamoDbClient } from './clients';

export interface EventStreamOptions {
  endpoint: string;
  tableName: string;
  handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;
  /** Pause between polls of a caught-up stream. */
  intervalMs?: number;
  /** Reads of a failing record before it is passed (the mapping's retry attempts). */
  attempts?: number;
  log?: (line: string) => void;
}

const REGION = 'eu-west-2';

type Value = Record<string, unknown>;

/**
 * DynamoDB Local's stream writes an empty map as `{}` where DynamoDB writes `{"M": {}}` (an attribute
 * value with no type at all, which no reader accepts): put the type back, at any depth.
 */
const typed = (value: Value): Value => {
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.M)
    return {
      M: Object.fromEntries(Object.entries(value.M as Value).map(([k, v]) => [k, typed(v as Value)])),
    };
  if (value.L) return { L: (value.L as Value[]).map(typed) };
  return value;
};
const image = (item: Value | undefined) =>
  item && Object.fromEntries(Object.entries(item).map(([k, v]) => [k, typed(v as Value)]));

/** A record as the SDK reads it → as Lambda delivers it (epoch seconds, the stream's ARN). */
const asLambdaRecord = (record: _Record, streamArn: string): DynamoDBRecord =>
  ({
    ...record,
    awsRegion: REGION,
    eventSourceARN: streamArn,
    dynamodb: {
      ...record.dynamodb,
      NewImage: image(record.dynamodb?.NewImage as Value | undefined),
      ApproximateCreationDateTime: Math.floor(
        (record.dynamodb?.ApproximateCreationDateTime?.getTime() ?? 0) / 1000,
      ),
    },
  }) as DynamoDBRecord;

export const startEventStream = async ({
  endpoint,
  tableName,
  handler,
  intervalMs = 200,
  attempts = 3,
  log = () => {},
}: EventStreamOptions) => {
  assertLoopback(endpoint);
  const credentials = { accessKeyId: localDatabaseKey(tableName), secretAccessKey: 'local' };
  const streams = new DynamoDBStreamsClient({ endpoint, region: REGION, credentials });
  const table = await localDynamoDbClient(endpoint, tableName).send(
    new DescribeTableCommand({ TableName: tableName }),
  );
  const streamArn = table.Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`${tableName} has no stream`);
  /** Each shard's next iterator; null once the shard is closed and read to its end. */
  const shards = new Map<string, string | null>();
  const failures = new Map<string, number>();
  const iterator = async (
    ShardId: string,
    type: 'TRIM_HORIZON' | 'AT_SEQUENCE_NUMBER' | 'AFTER_SEQUENCE_NUMBER',
    at?: string,
  ) =>
    (
      await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId,
          ShardIteratorType: type,
          SequenceNumber: at,
        }),
      )
    ).ShardIterator ?? null;

  /** Reads one batch of a shard; how many records it handed over. */
  const readShard = async (shardId: string, from: string): Promise<number> => {
    const out = await streams.send(new GetRecordsCommand({ ShardIterator: from, Limit: 100 }));
    const records = out.Records ?? [];
    if (records.length > 0) {
      const { batchItemFailures } = await handler({
        Records: records.map((r) => asLambdaRecord(r, streamArn)),
      });
      const failed = batchItemFailures[0]?.itemIdentifier;
      if (failed) {
        const seen = (failures.get(failed) ?? 0) + 1;
        failures.set(failed, seen);
        if (seen < attempts) {
          await new Promise((resolve) => setTimeout(resolve, intervalMs * 2 ** seen));
          shards.set(shardId, await iterator(shardId, 'AT_SEQUENCE_NUMBER', failed));
          return records.length;
        }
        log(`event stream: record ${failed} failed ${seen} times; passed (in AWS: the dead-letter queue)`);
        failures.delete(failed);
        shards.set(shardId, await iterator(shardId, 'AFTER_SEQUENCE_NUMBER', failed));
        return records.length;
      }
    }
    shards.set(shardId, out.NextShardIterator ?? null);
    return records.length;
  };

  /** One pass over every shard (new ones from their start); how many records it handed over. */
  const poll = async (): Promise<number> => {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      const id = shard.ShardId;
      if (id && !shards.has(id)) shards.set(id, await iterator(id, 'TRIM_HORIZON'));
    }
    let read = 0;
    for (const [id, next] of shards) if (next) read += await readShard(id, next);
    return read;
  };

  // Passes run one at a time (an iterator is read once), whoever asks for them.
  let queue: Promise<number> = Promise.resolve(0);
  const pass = () => {
    queue = queue
      .then(() => poll())
      .catch((error: unknown) => {
        log(`event stream: ${String(error)}`);
        return 0;
      });
    return queue;
  };
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      await pass();
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  };
  void loop();
  return {
    /** Resolves once every record committed before the call has been handed over (or passed). */
    drain: async () => {
      while ((await pass()) > 0);
    },
    stop: async () => {
      stopped = true;
      await queue;
      streams.destroy();
    },
  };
};
