/**
 * The table's stream, as the event consumer receives it: a DynamoDB stream record (the shape Lambda is
 * handed: `eventName`, `dynamodb.Keys`, `NewImage` in DynamoDB JSON) built from an event item in the table,
 * and handed to the consumer function's own handler (`functions/events/consume.ts`). Tests that need one
 * event delivered at a chosen moment (or twice) deliver it here; the stream itself, polled as `npm start`
 * does, is proven in test/api/event-stream.test.ts.
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
