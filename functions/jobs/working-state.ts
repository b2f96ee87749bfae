/**
 * A job read as it stands (`derive` of the jobs' declaration, `definitions.ts`): status and progress from
 * its working state (`shared/data/jobs.ts`) while it is unfinished. Loaded with the first job read, so the
 * declaration every function reads carries no read of its own.
 */
import { jobStateKey } from '#shared/data/job-keys';
import type { JobState } from '#shared/data/jobs';
import { readAheadOr } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';

/**
 * The record as it stands: status and progress from its working state while it is unfinished. A state
 * already finished means the record's last version (its result) landed after the record was read: the
 * job shows as running until it is read again, never as finished without its result or errors.
 */
export const withState = async (scope: Scope, items: StoredResource[]) => {
  const open = items.filter((job) => job.attributes.status === 'queued');
  if (open.length === 0) return items;
  const states = new Map(
    (
      await readAheadOr<JobState>(
        scope,
        open.map((job) => jobStateKey(job.id)),
      )
    ).map((s) => [s.job_id, s]),
  );
  return items.map((job) => {
    const state = states.get(job.id);
    if (!state || job.attributes.status !== 'queued') return job;
    return {
      ...job,
      attributes: {
        ...job.attributes,
        status: state.status === 'queued' ? 'queued' : 'running',
        progress: { processed: state.processed, total: state.total },
      },
    };
  });
};
