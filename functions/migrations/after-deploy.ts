/**
 * The runner as the stack's post-deploy step: a CloudFormation custom resource served by the runner
 * itself (`infra/constructs/migrations.ts`), so no framework function of CDK's own joins the stack. On
 * create and update (a migration added) it runs the migrations; on delete it does nothing (data stays).
 * It always answers CloudFormation, at the presigned URL the event carries: success, or failure with the
 * reason (a step that threw, or migrations left when its time ran out), which fails the deploy where the
 * operator sees it. What was done stays done; the next deploy, or an invocation, resumes.
 */
import type { CloudFormationCustomResourceEvent, Context } from 'aws-lambda';
import type { MigrationRun, RunOptions } from '#shared/engine/migration-runner';
import { answerCustomResource } from '#shared/http/custom-resource-answer';

/** Time kept back from the function's timeout to save progress and answer CloudFormation. */
const RESERVE_MS = 60_000;

const answer = (event: CloudFormationCustomResourceEvent, status: 'SUCCESS' | 'FAILED', reason: string) =>
  answerCustomResource(event, { status, reason, physicalResourceId: 'migrations' });

export const afterDeploy =
  (migrate: (options: RunOptions) => Promise<MigrationRun>) =>
  async (event: CloudFormationCustomResourceEvent, context: Context): Promise<void> => {
    if (event.RequestType === 'Delete') return answer(event, 'SUCCESS', 'Nothing to undo: the data stays');
    try {
      const run = await migrate({ timeUp: () => context.getRemainingTimeInMillis() < RESERVE_MS });
      await (run.finished
        ? answer(event, 'SUCCESS', `Schema version ${run.from} → ${run.to}`)
        : answer(
            event,
            'FAILED',
            `Migrations unfinished at schema version ${run.to}: deploy again to resume`,
          ));
    } catch (error) {
      await answer(
        event,
        'FAILED',
        `Migrations failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
