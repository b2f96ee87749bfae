/**
 * Jobs' work due later: a job whose worker's lease ran out (it died, or its start was lost) gets a new
 * worker, which resumes from the last checkpoint. The job's state is its own entry (`data/jobs.ts`): each
 * lease it takes or renews moves its due time. 100 a run.
 */
import { JOB_DUE_KIND } from '../../data/jobs';
import { dueWorkKind } from '../due-work/kinds';

export const JOB_RESTART = dueWorkKind(
  JOB_DUE_KIND,
  { module: 'shared/resources/jobs/worker.ts', run: 'restartJob' },
  { perRun: 100 },
);
