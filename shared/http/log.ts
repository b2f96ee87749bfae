/**
 * Structured JSON logs, one line per entry. Request and response bodies, headers and secrets are never
 * passed here; errors carry their stack so a 500's cause can be found by its request id.
 */
import { config } from '../config';

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, 'silent'>;

const write = (level: Level, message: string, fields: Record<string, unknown>) => {
  if (levels[level] < levels[config.LOG_LEVEL]) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...fields });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
};

export const METRIC_NAMESPACE = 'ComplianceApi';

/**
 * A CloudWatch metric through the embedded metric format: one log line CloudWatch turns into a data
 * point (the stack alarms on it), written whatever the log level.
 */
export const metric = (name: string, value = 1) => {
  const line = {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        { Namespace: METRIC_NAMESPACE, Dimensions: [['Stage']], Metrics: [{ Name: name, Unit: 'Count' }] },
      ],
    },
    Stage: config.STAGE,
    [name]: value,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
};

export const log = {
  debug: (message: string, fields: Record<string, unknown> = {}) => write('debug', message, fields),
  info: (message: string, fields: Record<string, unknown> = {}) => write('info', message, fields),
  warn: (message: string, fields: Record<string, unknown> = {}) => write('warn', message, fields),
  error: (message: string, fields: Record<string, unknown> = {}) => write('error', message, fields),
};
