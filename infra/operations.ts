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
  /** The stage's default route throttling: steady requests per second, and the burst above it. */
  throttleRateLimit: number;
  throttleBurstLimit: number;
  /** Concurrent executions kept for the street-works feed's receiver alone (when topics are subscribed). */
  streetWorksReservedConcurrency: number;
  /** Requests an organisation (all its clients together), and one client, may make a minute. */
  requestsPerMinuteOrganisation: number;
  requestsPerMinuteClient: number;
}

/** Each stage's defaults, which the app's context overrides (infra/context.ts). */
export const STAGE_DEFAULTS: Record<Stage, Operations> = {
  dev: {
    logRetentionDays: 14,
    accessLogRetentionDays: 30,
    serverErrorAlarmPercent: 5,
    throttleRateLimit: 50,
    throttleBurstLimit: 100,
    streetWorksReservedConcurrency: 2,
    requestsPerMinuteOrganisation: 6000,
    requestsPerMinuteClient: 1200,
  },
  staging: {
    logRetentionDays: 30,
    accessLogRetentionDays: 90,
    serverErrorAlarmPercent: 2,
    throttleRateLimit: 200,
    throttleBurstLimit: 400,
    streetWorksReservedConcurrency: 5,
    requestsPerMinuteOrganisation: 6000,
    requestsPerMinuteClient: 1200,
  },
  prod: {
    logRetentionDays: 90,
    accessLogRetentionDays: 365,
    serverErrorAlarmPercent: 1,
    throttleRateLimit: 1000,
    throttleBurstLimit: 2000,
    streetWorksReservedConcurrency: 10,
    requestsPerMinuteOrganisation: 6000,
    requestsPerMinuteClient: 1200,
  },
};

/** The street-works receiver's own throttling (its route's, apart from the stage's): SNS's retries stay under it. */
export const STREET_WORKS_THROTTLE = { rateLimit: 100, burstLimit: 200 } as const;
