/**
 * Webhook delivery (issue 18): the KMS key that encrypts subscriptions' signing secrets, and the retry
 * runner, a function an EventBridge rule invokes every minute to attempt the deliveries that are due.
 * The key is symmetric, rotated yearly, retained; the API may only Encrypt with it (new secrets), and
 * only the delivery functions (this runner and the event consumer, through `grantDelivery`) Decrypt.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { type IGrantable, ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { WorkerFunction } from './area-function';

/** The runner's module, relative to the repository root. */
export const RETRY_ENTRY = 'functions/webhooks/retry-deliveries.ts';

export interface WebhookDeliveryProps {
  table: Table;
  /** Set on the runner as on the API functions (STAGE, TABLE_NAME, …). */
  environment: Record<string, string>;
  /** How long the runner's log group keeps its logs. */
  logRetention: RetentionDays;
}

export class WebhookDelivery extends Construct {
  readonly secretsKey: Key;
  readonly retryFunction: LambdaFunction;

  constructor(scope: Construct, id: string, { table, environment, logRetention }: WebhookDeliveryProps) {
    super(scope, id);
    this.secretsKey = new Key(this, 'SecretsKey', {
      description:
        'Encrypts webhook signing secrets at rest (the service signs with them, so they cannot be hashed).',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const role = new Role(this, 'RetryRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Webhook retry runner: reads and records deliveries, decrypts signing secrets',
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
    this.retryFunction = new WorkerFunction(this, 'RetryFunction', {
      entry: RETRY_ENTRY,
      logRetention,
      description: 'Attempts the webhook deliveries that are due (every minute)',
      // Up to 200 due deliveries, 8 at a time, each attempt bounded at 10 s.
      timeout: Duration.minutes(5),
      role,
      environment: { ...environment, WEBHOOK_SECRETS_KEY_ID: this.secretsKey.keyArn },
    });
    this.grantDelivery(role, table);
    new Rule(this, 'EveryMinute', {
      description: 'Runs the webhook retry runner',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaTarget(this.retryFunction, { retryAttempts: 0 })],
    });
  }

  /** What delivering needs: the table (deliveries, subscriptions, events) and decrypting secrets. */
  grantDelivery(grantee: IGrantable, table: Table) {
    table.grantReadWriteData(grantee);
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['kms:Decrypt'], resources: [this.secretsKey.keyArn] }),
    );
  }
}
