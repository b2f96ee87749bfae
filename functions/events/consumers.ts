/**
 * What happens to each event after its transaction commits: the table's stream (DynamoDB Streams in AWS;
 * locally, a poller of DynamoDB Local's stream) hands every new event item, unmarshalled, to each consumer
 * here (`functions/events/consume.ts`): the audit log (`audit/consumer.ts`), jobs' start
 * (`jobs/consumer.ts`), a renamed role's holders (`iam/grant-names.ts`), a renamed folder's subfolders
 * (`documents/folder-paths.ts`) and webhooks. The stream
 * delivers at least once: every consumer must be idempotent by event id.
 */

import { auditConsumer } from '#functions/audit/consumer';
import { folderPathsConsumer } from '#functions/documents/folder-paths';
import { grantNamesConsumer } from '#functions/iam/grant-names';
import { jobConsumer } from '#functions/jobs/consumer';
import { webhookConsumer } from '#functions/webhooks/consumer';
import type { StoredEvent } from '#shared/data/events';

export interface EventConsumer {
  name: string;
  handle(event: StoredEvent): Promise<void>;
}

/**
 * In this order: the permanent audit entry first (two round trips to the table), then a renamed role's
 * name on its holders (one transaction per grant naming it), then a renamed folder's path on its
 * subfolders (a Query and a transaction per 50 of them), then a new job's start
 * (one asynchronous invocation), then webhooks (whose first attempt may wait on a receiver). A failure in
 * any stops the batch at that event and all are handed it again; each is idempotent (a job is taken under a
 * lease, so a second start finds it taken), so one that had finished does nothing the second time.
 */
export const consumers: readonly EventConsumer[] = [
  auditConsumer,
  grantNamesConsumer,
  folderPathsConsumer,
  jobConsumer,
  webhookConsumer,
];
