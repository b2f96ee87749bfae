/**
 * Jobs (issue 18): the worker, which the event consumer invokes asynchronously when a job is created and
 * which invokes itself to go on with a job in a fresh invocation; the due-work runner (`due-work.ts`)
 * restarts jobs whose worker died (its lease ran out). Lambda's own retries of a failed asynchronous
 * invocation are off: the lease would refuse them, and the due-work runner retries instead.
 */
import { Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { bundleJobWorker } from '../worker-bundles';
import { WorkerFunction } from './area-function';

export interface JobsProps {
  table: Table;
  /** Where job inputs (import files) are kept. */
  files: Bucket;
  /** Set on the worker as on the other workers (STAGE, TABLE_NAME). */
  environment: Record<string, string>;
  /** How long the worker's log group keeps its logs. */
  logRetention: RetentionDays;
}

export class Jobs extends Construct {
  readonly worker: LambdaFunction;

  constructor(scope: Construct, id: string, { table, files, environment, logRetention }: JobsProps) {
    super(scope, id);
    const env = { ...environment, EXPORTS_BUCKET: files.bucketName };
    // It finds its own name in AWS_LAMBDA_FUNCTION_NAME (setting it here would make the function
    // depend on itself).
    this.worker = new WorkerFunction(this, 'Worker', {
      entry: 'functions/jobs/work.ts',
      build: bundleJobWorker,
      logRetention,
      description: 'Runs jobs in bounded chunks from their checkpoints',
      // Each invocation starts new chunks for 10 minutes (JOB_INVOCATION_SECONDS), then hands on.
      timeout: Duration.minutes(15),
      memorySize: 2048,
      environment: env,
      retryAttempts: 0,
    });
    table.grantReadWriteData(this.worker);
    // It reads an import's file and writes an export's, part by part (PutObject covers the multipart calls).
    files.grantRead(this.worker);
    files.grantPut(this.worker);
    // A policy of its own, not the role's default one, which the function itself depends on.
    new Policy(this, 'WorkerInvokesItself', {
      roles: this.worker.role ? [this.worker.role] : [],
      statements: [
        new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.worker.functionArn] }),
      ],
    });
  }

  /** What starting a job's worker needs: invoking it, by the name `JOB_WORKER_FUNCTION` gives. */
  grantStart(grantee: IGrantable) {
    this.worker.grantInvoke(grantee);
  }
}
