/**
 * Structured JSON logs and CloudWatch metrics, through Powertools for AWS Lambda (TypeScript): one JSON
 * line per entry (`level`, `message`, `service`, `timestamp`, the X-Ray trace id when traced, and the
 * entry's fields). Request and response bodies, headers and secrets are never passed here; errors carry
 * their stack so a 500's cause can be found by its request id.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { config } from '../config';

export const METRIC_NAMESPACE = 'ComplianceApi';
/** The `service` of every log line, and a dimension of every metric (with `Stage`). */
export const SERVICE_NAME = 'compliance-api';

type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';

export const log = new Logger({
  serviceName: SERVICE_NAME,
  logLevel: config.LOG_LEVEL.toUpperCase() as LogLevel,
});

const metrics = new Metrics({
  namespace: METRIC_NAMESPACE,
  serviceName: SERVICE_NAME,
  defaultDimensions: { Stage: config.STAGE },
});

/**
 * A count through the embedded metric format: one log line CloudWatch turns into a data point (the stack
 * alarms on it), written at once and whatever the log level.
 */
export const metric = (name: string, value = 1) => {
  metrics.addMetric(name, MetricUnit.Count, value);
  metrics.publishStoredMetrics();
};
