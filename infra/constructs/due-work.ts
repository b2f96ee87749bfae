/**
 * Work due later (shared/data/due-work.ts): the one runner, which one EventBridge rule invokes every
 * minute to do the work of every kind the areas declare whose time has come (jobs whose worker died,
 * webhook retries, automatic sign-outs, expiry warnings, recurring runs, notification digests and
 * escalations). Its own role: the table, the webhook secrets key to sign retries
 * (`WebhookDelivery.grantDelivery`), starting job workers (`Jobs.grantStart`), and what notification
 * e-mail needs (`grantMail`: SES from the configured sender, the cursor key unsubscribe tokens derive
 * from), nothing else.
 */
import { Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { type IRole, ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { bundleDueWork } from '../worker-bundles';
import { WorkerFunction } from './area-function';
import type { Jobs } from './jobs';
import type { WebhookDelivery } from './webhook-delivery';

/** The runner's module under tsx, relative to the repository root (its folder keys CDK's bundling cache). */
export const DUE_WORK_ENTRY = 'functions/due-work/run.ts';

export interface DueWorkProps {
  table: Table;
  webhooks: WebhookDelivery;
  jobs: Jobs;
  /**
   * Set on the runner as on the other workers (STAGE, TABLE_NAME), with what notification e-mail reads
   * (the sender, the API's address, the cursor key's secret).
   */
  environment: Record<string, string>;
  /** Grants the runner's role what notification e-mail needs (digests, escalations' re-sent mail). */
  grantMail: (role: IRole) => void;
  logRetention: RetentionDays;
}

export class DueWork extends Construct {
  constructor(
    scope: Construct,
    id: string,
    { table, webhooks, jobs, environment, grantMail, logRetention }: DueWorkProps,
  ) {
    super(scope, id);
    const role = new Role(this, 'RunnerRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description:
        'Due-work runner: the table, webhook signing secrets, starting job workers, notification e-mail',
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
    const runner = new WorkerFunction(this, 'Runner', {
      entry: DUE_WORK_ENTRY,
      // Generated from the areas' kinds: one literal import of each kind's work (infra/worker-bundles.ts).
      build: bundleDueWork,
      logRetention,
      description: 'Does the work due later that is due, of every kind (every minute)',
      // Up to 2,000 entries, 16 at a time; a webhook attempt (200 a run at most) is bounded at 10 s.
      timeout: Duration.minutes(5),
      role,
      environment: {
        ...environment,
        WEBHOOK_SECRETS_KEY_ID: webhooks.secretsKey.keyArn,
        JOB_WORKER_FUNCTION: jobs.worker.functionName,
      },
    });
    webhooks.grantDelivery(role, table);
    jobs.grantStart(role);
    grantMail(role);
    new Rule(this, 'EveryMinute', {
      description: 'Runs the due-work runner',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaTarget(runner, { retryAttempts: 0 })],
    });
  }
}
