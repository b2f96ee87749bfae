/**
 * The table's stream → the event consumers. Each new event is handed to every consumer in order; the
 * first that fails stops the batch there and is reported as a batch item failure, so Lambda retries from
 * that record (a stream keeps order per partition key: one organisation's events) and nothing after it
 * runs ahead. Hand-written rather than Powertools' batch processor: for a stream the whole rule is
 * "stop at the first failure", a few lines.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { type StoredEvent, streamEvents } from '#shared/data/events';
import { switchedOffPairs, switchPairId } from '#shared/data/feature-switches';
import type { EventConsumer } from '#shared/engine/event-consumers';
import { log } from '#shared/http/log';

/**
 * Whether a consumer passes an event by: its area's feature is switched off in the event's organisation.
 * Passed by, not held: what happened while the feature was off is not acted on when it comes back on (no
 * webhook for it, no document work), as the area's routes refused what it would have done meanwhile. The
 * batch's switches are read in one BatchGetItem, and only when some consumer belongs to a feature.
 */
const passedBy = async (events: readonly StoredEvent[], consumers: readonly EventConsumer[]) => {
  const features = [...new Set(consumers.flatMap((consumer) => consumer.feature ?? []))];
  const pairs = new Map(
    events.flatMap((event) =>
      features.map(
        (feature) => [switchPairId(event.org_id, feature), { orgId: event.org_id, feature }] as const,
      ),
    ),
  );
  const off = await switchedOffPairs([...pairs.values()]);
  return (event: StoredEvent, consumer: EventConsumer) =>
    consumer.feature !== undefined && off.has(switchPairId(event.org_id, consumer.feature));
};

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
    const batch = streamEvents(Records);
    const skips = await passedBy(
      batch.map(({ event }) => event),
      running,
    );
    for (const { sequence, event } of batch) {
      for (const consumer of running) {
        if (skips(event, consumer)) continue;
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
