/**
 * Failures that mean "try again shortly", not "this request is wrong" nor "the service is broken":
 * DynamoDB throttling, timeouts and transaction conflicts that outlasted the SDK's own retries (and the
 * transaction retries in transaction.ts). The HTTP layer answers them 503 with Retry-After.
 */
const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'LimitExceededException',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'TransactionConflictException',
  'TransactionInProgressException',
]);

/** Transaction conflicts that outlasted our retries. */
export class DataUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataUnavailable';
  }
}

export const isTransient = (error: unknown): boolean =>
  error instanceof DataUnavailable ||
  (error instanceof Error &&
    (TRANSIENT.has(error.name) || (error as { $retryable?: unknown }).$retryable !== undefined));
