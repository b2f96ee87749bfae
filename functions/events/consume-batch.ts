/**
 * The table's stream → the event consumers. Each new event is handed to every consumer in order; the
 * first that fails stops the batch there and is reported as a batch item failure, so Lambda retries from
 * that record (a stream keeps order per partition key: one organisation's events) and nothing after it
 * runs ahead. Hand-written rather than Powertools' batch processor: for a stream the whole rule is
 * "stop at the first failure", a few lines.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { streamEvents } from '#shared/data/events';
import { log } from '#shared/http/log';
import type { EventConsumer } from './consumers';

export const consumeWith =
  (consumers: readonly EventConsumer[]) =>
  async ({ Records }: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    for (const { sequence, event } of streamEvents(Records)) {
      for (const consumer of consumers) {
        try {
          await consumer.handle(event);
        } catch (error) {
          const { message, stack } = error instanceof Error ? error : new Error(String(error));
          log.error(`event consumer ${consumer.name} failed: ${message}`, { event: event.id, stack });
          return { batchItemFailures: [{ itemIdentifier: sequence }] };
        }
      }
    }
    return { batchItemFailures: [] };
  };
