/**
 * What happens to each event after its transaction commits: the table's stream (DynamoDB Streams in AWS;
 * locally, a poller of DynamoDB Local's stream) hands every new event item, unmarshalled, to each consumer
 * here (`functions/events/consume.ts`). The stream delivers at least once: every consumer must be
 * idempotent by event id.
 */
import type { StoredEvent } from '../../data/events';
import { jobConsumer } from '../jobs/consumer';
import { webhookConsumer } from '../webhooks/consumer';

export interface EventConsumer {
  name: string;
  handle(event: StoredEvent): Promise<void>;
}

export const consumers: readonly EventConsumer[] = [webhookConsumer, jobConsumer];
