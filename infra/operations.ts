/** How a stage is run: how long its logs are kept, when it alarms, and whom the alarms tell. */
export type Stage = 'dev' | 'staging' | 'prod';

export interface Operations {
  /** Days the functions' log groups keep their logs. */
  logRetentionDays: number;
  /** Days the API's access log keeps its lines. */
  accessLogRetentionDays: number;
  /** The share of requests answered 5xx over 5 minutes (percent) that raises an alarm. */
  serverErrorAlarmPercent: number;
  /** An address the alarms topic e-mails. */
  alarmEmail?: string;
}

/** Each stage's defaults, which the app's context overrides (infra/context.ts). */
export const STAGE_DEFAULTS: Record<Stage, Operations> = {
  dev: { logRetentionDays: 14, accessLogRetentionDays: 30, serverErrorAlarmPercent: 5 },
  staging: { logRetentionDays: 30, accessLogRetentionDays: 90, serverErrorAlarmPercent: 2 },
  prod: { logRetentionDays: 90, accessLogRetentionDays: 365, serverErrorAlarmPercent: 1 },
};
