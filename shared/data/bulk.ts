/**
 * Bulk writes for imports: BatchWriteItem in full chunks of 25, a few in flight at once, with
 * `UnprocessedItems` retried with backoff until every item is written (or a clear failure).
 */
import { BatchWriteCommand, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from './clients';

const CHUNK = 25;
const IN_FLIGHT = 4;
const MAX_ATTEMPTS = 10;

export interface BulkWriteReport {
  items: number;
  calls: number;
  retried: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const bulkPut = async (
  items: readonly Record<string, unknown>[],
  inFlight = IN_FLIGHT,
): Promise<BulkWriteReport> => {
  const report: BulkWriteReport = { items: items.length, calls: 0, retried: 0 };
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += CHUNK)
    chunks.push(items.slice(i, i + CHUNK) as Record<string, unknown>[]);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++] ?? [];
      let pending: { PutRequest: { Item: Record<string, unknown> } }[] = chunk.map((Item) => ({
        PutRequest: { Item },
      }));
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt === MAX_ATTEMPTS)
          throw new Error(`BatchWriteItem left ${pending.length} items unwritten`);
        if (attempt > 0) {
          report.retried += pending.length;
          await pause(Math.min(1000, 20 * 2 ** attempt));
        }
        report.calls++;
        const out: BatchWriteCommandOutput = await documents.send(
          new BatchWriteCommand({ RequestItems: { [tableName]: pending } }),
        );
        pending = (out.UnprocessedItems?.[tableName] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return report;
};
