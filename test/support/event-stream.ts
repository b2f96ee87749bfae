/**
 * The table's stream, as the event consumer receives it: a DynamoDB stream record (the shape Lambda is
 * handed: `eventName`, `dynamodb.Keys`, `NewImage` in DynamoDB JSON) built from an event item in the table,
 * and handed to the consumer function's own handler (`functions/events/consume.ts`). Tests that need one
 * event delivered at a chosen moment (or twice) deliver it here, and tests that read what the consumers
 * made of their writes (audit entries) deliver an organisation's new events first (`deliverEvents`), as
 * the stream would a few seconds after the writes; the stream itself, polled as `npm start` does, is
 * proven in test/api/event-stream.test.ts.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { documents, tableName } from '#shared/data/clients';
import { eventPartition, type StoredEvent, subjectEvents } from '#shared/data/events';
import { handler } from '../../functions/events/consume';

export interface StreamRecord {
  eventID: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  eventSource: 'aws:dynamodb';
  dynamodb: {
    Keys: Record<string, AttributeValue>;
    NewImage?: Record<string, AttributeValue>;
    SequenceNumber: string;
    StreamViewType: 'NEW_IMAGE';
  };
}

let sequence = 0;

export const streamRecordOf = (item: StoredEvent): StreamRecord => ({
  eventID: `test-${++sequence}`,
  eventName: 'INSERT',
  eventSource: 'aws:dynamodb',
  dynamodb: {
    Keys: marshall({ pk: item.pk, sk: item.sk }),
    NewImage: marshall(item, { removeUndefinedValues: true }),
    SequenceNumber: String(sequence).padStart(21, '0'),
    StreamViewType: 'NEW_IMAGE',
  },
});

/** Hands one record to the consumer function, as the stream would; a failure it reports is thrown. */
export const consume = async (record: StreamRecord) => {
  const { batchItemFailures } = await handler({ Records: [record as DynamoDBRecord] });
  if (batchItemFailures.length > 0) throw new Error(`The event consumer failed on ${record.eventID}`);
};

/** The organisation's newest event of this name (about `subjectId`, when given), read from the table. */
export const latestEvent = async (orgId: string, name: string, subjectId?: string): Promise<StoredEvent> => {
  const out = await documents.send(
    new QueryCommand({
      TableName: tableName,
      ...(subjectId
        ? {
            IndexName: 'gsi1',
            KeyConditionExpression: 'gsi1pk = :pk',
            ExpressionAttributeValues: { ':pk': subjectEvents(subjectId) },
          }
        : {
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': eventPartition(orgId) },
          }),
      ScanIndexForward: false,
      Limit: 50,
    }),
  );
  const found = ((out.Items ?? []) as StoredEvent[]).find((e) => e.event === name && e.org_id === orgId);
  if (!found) throw new Error(`No ${name} event in ${orgId}`);
  return found;
};

/** Per organisation, the id of the last event `deliverEvents` handed over. */
const deliveredUpTo = new Map<string, string>();

/**
 * Hands every event of the organisation committed since the last call to the consumer function, in
 * order, as the stream would, in batches of 100 (the mapping's batch size); how many it handed over.
 * Call it once the writes have been answered: events still committing may have earlier ids. Events the
 * consumers themselves commit meanwhile are left to the next call, however many pages this one reads.
 */
export const deliverEvents = async (orgId: string): Promise<number> => {
  let handed = 0;
  const after = deliveredUpTo.get(orgId) ?? '0';
  const [newest] = ((
    await documents.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': eventPartition(orgId) },
        ConsistentRead: true,
        ScanIndexForward: false,
        Limit: 1,
      }),
    )
  ).Items ?? []) as StoredEvent[];
  if (!newest || newest.sk <= after) return 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await documents.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :after AND :newest',
        ExpressionAttributeValues: {
          ':pk': eventPartition(orgId),
          ':after': after,
          ':newest': newest.sk,
        },
        ConsistentRead: true,
        Limit: 100,
        ExclusiveStartKey,
      }),
    );
    const events = ((out.Items ?? []) as StoredEvent[]).filter((e) => e.sk !== after);
    if (events.length > 0) {
      const { batchItemFailures } = await handler({
        Records: events.map(streamRecordOf) as DynamoDBRecord[],
      });
      if (batchItemFailures.length > 0) throw new Error(`The event consumer failed on a record of ${orgId}`);
      deliveredUpTo.set(orgId, events.at(-1)?.id ?? '');
      handed += events.length;
    }
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return handed;
};
