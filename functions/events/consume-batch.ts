/**
 * The table's stream → the event consumers. Each new event is handed to every consumer in order; the
 * first that fails stops the batch there and is reported as a batch item failure, so Lambda retries from
 * that record (a stream keeps order per partition key: one organisation's events) and nothing after it
 * runs ahead. Hand-written rather than Powertools' batch processor: for a stream the whole rule is
 * "stop at the first failure", a few lines.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { streamEvents } from '#shared/data/events';
import type { EventConsumer } from '#shared/engine/event-consumers';
import { log } from '#shared/http/log';

/** The consumers, or how to load them: loaded once, at the first batch. */
export const consumeWith = (
  consumers: readonly EventConsumer[] | (() => Promise<readonly EventConsumer[]>),
) => {
  let loading: Promise<readonly EventConsumer[]> | undefined;
  const loaded = () => {
    // A load that failed is tried again with the next batch (which Lambda hands again).
    loading ??= (typeof consumers === 'function' ? consumers() : Promise.resolve(consumers)).catch(
      (error) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return async ({ Records }: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const running = await loaded();
    for (const { sequence, event } of streamEvents(Records)) {
      for (const consumer of running) {
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
};
