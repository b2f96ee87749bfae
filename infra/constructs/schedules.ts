/**
 * Scheduled work (issue 22): the schedule runner, which an EventBridge rule invokes every minute to do
 * the work whose time has come (automatic sign-outs at sites' closing times, qualification expiry
 * warnings). The schedule itself lives in the table beside the records (shared/data/schedules.ts).
 */
import { Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { WorkerFunction } from './area-function';

export interface SchedulesProps {
  table: Table;
  /** Set on the runner as on the other workers (STAGE, TABLE_NAME). */
  environment: Record<string, string>;
  logRetention: RetentionDays;
}

export class Schedules extends Construct {
  constructor(scope: Construct, id: string, { table, environment, logRetention }: SchedulesProps) {
    super(scope, id);
    const runner = new WorkerFunction(this, 'Runner', {
      entry: 'functions/schedules/run.ts',
      logRetention,
      description: 'Does the scheduled work that is due: automatic sign-outs, expiry warnings (every minute)',
      // Up to 2,000 entries, 16 at a time, each one consistent read and one transaction.
      timeout: Duration.minutes(1),
      environment,
    });
    table.grantReadWriteData(runner);
    new Rule(this, 'EveryMinute', {
      description: 'Runs the schedule runner',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaTarget(runner, { retryAttempts: 0 })],
    });
  }
}
