/**
 * CloudWatch metrics through the embedded metric format (Powertools for AWS Lambda (TypeScript)): counts
 * the stack alarms on. Apart from `log.ts` because two handlers count (the street-works receiver, webhook
 * deliveries) and every request logs: a read's first answer neither loads the Metrics code nor builds it.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { config } from '../config';
import { SERVICE_NAME } from './log';

export const METRIC_NAMESPACE = 'ComplianceApi';

let metrics: Metrics | undefined;

/**
 * A count through the embedded metric format: one log line CloudWatch turns into a data point (the stack
 * alarms on it), written at once and whatever the log level.
 */
export const metric = (name: string, value = 1) => {
  metrics ??= new Metrics({
    namespace: METRIC_NAMESPACE,
    serviceName: SERVICE_NAME,
    defaultDimensions: { Stage: config.STAGE },
  });
  metrics.addMetric(name, MetricUnit.Count, value);
  metrics.publishStoredMetrics();
};
