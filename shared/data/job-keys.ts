/**
 * Where a job's working state is kept, and the due-work kind it carries while unfinished (`jobs.ts` has the
 * state's reads and writes): apart so the jobs' declaration (`derivedKeys`, its restart kind) and a job's
 * read name them without bringing the state's writes and the SDK into every function's start-up chunk.
 */
import { declareAccessPatterns, keyFrom } from './access-patterns';
import type { ItemKey } from './stored-resource';

/** The due-work kind of a job whose lease has run out. */
export const JOB_DUE_KIND = 'job-restart';

const keys = /* @__PURE__ */ declareAccessPatterns('data/jobs', {
  state: {
    index: 'table',
    pk: 'JOB#{job_id}',
    sk: 'STATE',
    about:
      "a job's state (internal): status, lease, chunks done, `last_error`; `expires_at` with its job; while queued or leased, its own entry on the due index (`job-restart`, due its lease's end)",
  },
});
export const jobStateKey = (jobId: string): ItemKey => keyFrom(keys.state, { job_id: jobId });
