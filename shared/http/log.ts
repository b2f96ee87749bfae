/**
 * Structured JSON logs, through Powertools for AWS Lambda (TypeScript): one JSON line per entry (`level`,
 * `message`, `service`, `timestamp`, the X-Ray trace id when traced, and the entry's fields). Request and
 * response bodies, headers and secrets are never passed here; errors carry their stack so a 500's cause
 * can be found by its request id. Metrics are `metrics.ts`'s.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { config } from '../config';

/** The `service` of every log line, and a dimension of every metric (with `Stage`). */
export const SERVICE_NAME = 'compliance-api';

type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';

export const log = new Logger({
  serviceName: SERVICE_NAME,
  logLevel: config.LOG_LEVEL.toUpperCase() as LogLevel,
});
