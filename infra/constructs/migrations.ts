/**
 * Migrations after every deploy that adds one: the runner (`functions/migrations/run.ts`, bundled with
 * one literal import per step) and a custom resource it serves itself (`after-deploy.ts`), updated
 * whenever the list of migrations changes and made to depend on everything else in the stack, so it runs
 * last. Safe to re-run: the runner reads the schema version and runs only what is above it, each step
 * idempotent and resumed from its checkpoint. A migration that fails (or outruns the 15 minutes) fails
 * the deploy where the operator sees it; the table keeps what was done, and the next deploy resumes.
 * (CDK's `triggers` would do the same through a framework function of its own, on another runtime and
 * architecture than every function here.)
 */
import { CustomResource, Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { migrations } from '#shared/routes';
import { bundleMigrations } from '../worker-bundles';
import { WorkerFunction } from './area-function';

export interface MigrationsProps {
  table: Table;
  /** Set on the runner as on the other workers (STAGE, TABLE_NAME). */
  environment: Record<string, string>;
  logRetention: RetentionDays;
}

export class Migrations extends Construct {
  readonly runner: WorkerFunction;
  readonly afterDeploy: CustomResource;

  constructor(scope: Construct, id: string, { table, environment, logRetention }: MigrationsProps) {
    super(scope, id);
    this.runner = new WorkerFunction(this, 'MigrationRunner', {
      entry: 'functions/migrations/run.ts',
      build: bundleMigrations,
      logRetention,
      description:
        'Runs the migrations above the table’s schema version (after each deploy that changes them)',
      timeout: Duration.minutes(15),
      environment,
      retryAttempts: 0,
    });
    // It walks the whole table (a Scan) and rewrites records: the table alone, nothing else.
    table.grantReadWriteData(this.runner);
    this.afterDeploy = new CustomResource(this, 'AfterDeploy', {
      serviceToken: this.runner.functionArn,
      resourceType: 'Custom::Migrations',
      // A new migration changes the list, so CloudFormation updates the resource, which runs it.
      properties: { Migrations: migrations.map((m) => `${m.version} ${m.name}`) },
    });
  }
}
