/**
 * Bulk writes for imports: BatchWriteItem in full chunks of 25, a few in flight at once, with
 * `UnprocessedItems` retried with backoff until every item is written (or a clear failure); and new
 * items that claim a unique value (`bulkClaimedPut`), in transactions, so the claim holds against any
 * other writer.
 */
import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, type BatchWriteCommandOutput, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from './clients';
import { systemActor } from './scope';
import type { ItemKey } from './stored-resource';
import { buildTransaction, recordInDirectory, TRANSACTION_MAX } from './transaction';
import { DataUnavailable } from './unavailable';

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

/** A new item and the claim of the unique value it holds (a location and its reference). */
export interface ClaimedItem {
  item: Record<string, unknown> & ItemKey;
  claim: ItemKey & { holder_id: string };
}

/** Pairs per TransactWriteItems: two actions each (the claim, the item; its id directory entry follows it). */
const PAIRS_PER_CALL = Math.floor(TRANSACTION_MAX / 2);
const CONFLICT_ATTEMPTS = 6;

/**
 * Writes each item with its claim in the same TransactWriteItems (up to 50 pairs a call, a few calls in
 * flight; the item's id directory entry with it, as `buildTransaction` adds), the claim conditional as a single create's is (`claim` in transaction.ts: free, expired, or
 * already this item's, so a pair written again is written the same). Two writers racing on one value
 * (two imports, or an import and a create) give exactly one holder: a pair whose claim another holds is
 * not written, and the call's other pairs are sent again without it. Returns the refused pairs' indexes.
 * The items are written as they are: no events (an import's record is its audit trail) and no counts.
 */
export const bulkClaimedPut = async (
  pairs: readonly ClaimedItem[],
  inFlight = IN_FLIGHT,
): Promise<BulkWriteReport & { refused: number[] }> => {
  const report = { items: pairs.length * 2, calls: 0, retried: 0, refused: [] as number[] };
  const chunks: number[][] = [];
  for (let i = 0; i < pairs.length; i += PAIRS_PER_CALL)
    chunks.push(Array.from({ length: Math.min(PAIRS_PER_CALL, pairs.length - i) }, (_, j) => i + j));
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      let pending = chunks[next++] ?? [];
      for (let conflicts = 0; pending.length > 0; ) {
        const { items, owners, directory } = buildTransaction(
          pending.flatMap((at) => {
            const pair = pairs[at] as ClaimedItem;
            return [{ claim: pair.claim }, { put: pair.item }];
          }),
          { actor: systemActor('imports'), at: Date.now() },
        );
        report.calls++;
        try {
          await documents.send(
            new TransactWriteCommand({ TransactItems: items, ClientRequestToken: randomUUID() }),
          );
          await recordInDirectory(directory);
          pending = [];
        } catch (error) {
          if (!(error instanceof TransactionCanceledException)) throw error;
          const reasons = error.CancellationReasons ?? [];
          // The pairs whose claim (or item) was refused by its condition: another holder has the value.
          const taken = new Set(
            reasons.flatMap((reason, item) =>
              reason.Code === 'ConditionalCheckFailed' ? [pending[Math.floor((owners[item] ?? 0) / 2)]] : [],
            ),
          );
          if (taken.size > 0) {
            report.refused.push(...[...taken].filter((at) => at !== undefined));
            pending = pending.filter((at) => !taken.has(at));
          } else if (reasons.every((r) => r.Code === 'TransactionConflict' || r.Code === 'None' || !r.Code)) {
            // Cancelled only by concurrent transactions on the same claims (nothing was written): again.
            if (++conflicts === CONFLICT_ATTEMPTS)
              throw new DataUnavailable('The import kept conflicting with other writes');
            report.retried += pending.length * 2;
            await pause(Math.min(1000, 20 * 2 ** conflicts + Math.random() * 20));
          } else throw error;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  report.refused.sort((a, b) => a - b);
  return report;
};
