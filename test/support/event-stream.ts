/**
 * The table's stream, as the event consumer receives it: a DynamoDB stream record (the shape Lambda is
 * handed: `eventName`, `dynamodb.Keys`, `NewImage` in DynamoDB JSON) built from an event item in the table,
 * and handed to every consumer of `shared/resources/events/consumers.ts` as the consumer function does
 * (unmarshalled). Until the stream poller lands, tests read the event item themselves and deliver it here.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { documents, tableName } from '#shared/data/clients';
import { eventPartition, type StoredEvent, subjectEvents } from '#shared/data/events';
import { consumers } from '#shared/resources/events/consumers';

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

/** What the consumer function does with one record: an inserted event item goes to every consumer. */
export const consume = async (record: StreamRecord) => {
  if (record.eventName !== 'INSERT' || !record.dynamodb.NewImage) return;
  const event = unmarshall(record.dynamodb.NewImage) as StoredEvent;
  for (const consumer of consumers) await consumer.handle(event);
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
