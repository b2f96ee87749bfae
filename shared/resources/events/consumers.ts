/**
 * What happens to each event after its transaction commits: the table's stream (DynamoDB Streams in AWS;
 * locally, a poller of DynamoDB Local's stream) hands every new event item, unmarshalled, to each consumer
 * here (`functions/events/consume.ts`): the audit log (`audit/consumer.ts`) and webhooks. The stream
 * delivers at least once: every consumer must be idempotent by event id.
 */
import type { StoredEvent } from '../../data/events';
import { auditConsumer } from '../audit/consumer';
import { webhookConsumer } from '../webhooks/consumer';

export interface EventConsumer {
  name: string;
  handle(event: StoredEvent): Promise<void>;
}

/**
 * In this order: the permanent audit entry first (two round trips to the table), then webhooks (whose
 * first attempt may wait on a receiver). A failure in either stops the batch at that event and both are
 * handed it again; each is idempotent, so the one that had finished does nothing the second time.
 */
export const consumers: readonly EventConsumer[] = [auditConsumer, webhookConsumer];
