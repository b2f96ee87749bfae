/**
 * The table's stream → the event consumers, in two passes over a batch (a stream keeps order per
 * partition key: one organisation's events, up to 100 a batch):
 * 1. The `record` stage (the audit entry), which keeps state per subject only: the batch's subjects side
 *    by side, each subject's events in order, a subject stopped at its first failure (a later event of
 *    it is never recorded before an earlier one). Serially, an organisation's burst was audited at about
 *    30 ms an event; this way a batch takes about as long as its busiest subject.
 * 2. The other stages, event by event in the batch's order, as before: each event's after its record, and
 *    none from the first event whose record failed.
 * The earliest failed event is reported as the batch item failure, so Lambda hands the batch again from
 * there: what succeeded after it (other subjects' records) is handed again and, every consumer being
 * idempotent by event id, does nothing twice. Hand-written rather than Powertools' batch processor:
 * for a stream the rule is "stop at the first failure", a few lines.
 */
import type { DynamoDBBatchItemFailure, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
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
    /** Runs an event through consumers in order; false (logged) at the first that fails. */
    const handled = async (event: StoredEvent, consumers: readonly EventConsumer[]) => {
      for (const consumer of consumers) {
        if (skips(event, consumer)) continue;
        try {
          await consumer.handle(event);
        } catch (error) {
          const { message, stack } = error instanceof Error ? error : new Error(String(error));
          log.error(`event consumer ${consumer.name} failed: ${message}`, { event: event.id, stack });
          return false;
        }
      }
      return true;
    };
    const recording = running.filter((consumer) => consumer.stage === 'record');
    const rest = running.filter((consumer) => consumer.stage !== 'record');
    const bySubject = new Map<string, number[]>();
    batch.forEach(({ event }, at) => {
      const subject = `${event.org_id}/${event.subject.id}`;
      bySubject.set(subject, [...(bySubject.get(subject) ?? []), at]);
    });
    // Per subject, the index of its first event whose record failed (its later ones not tried).
    const failedAt = await Promise.all(
      [...bySubject.values()].map(async (events) => {
        for (const at of events) if (!(await handled(batch[at]?.event as StoredEvent, recording))) return at;
        return batch.length;
      }),
    );
    const stop = Math.min(batch.length, ...failedAt);
    let failed = stop;
    for (const [at, { event }] of batch.slice(0, stop).entries()) {
      if (!(await handled(event, rest))) {
        failed = at;
        break;
      }
    }
    const failure: DynamoDBBatchItemFailure[] =
      failed < batch.length ? [{ itemIdentifier: batch[failed]?.sequence ?? '' }] : [];
    return { batchItemFailures: failure };
  };
};
