/**
 * Starts a job's worker when its record is created (`job.created`): an asynchronous invocation, so the
 * stream is never held up by the work. A redelivered event starts a second worker, which finds the job
 * held (its lease) or finished and stops.
 */
import { config } from '#shared/config';
import type { StoredEvent } from '#shared/data/events';
import { invokeAsync } from '#shared/data/lambda';

/** The `jobs` consumer (`area.ts`). */
export const startJobWorker = async (event: StoredEvent): Promise<void> => {
  if (event.event !== 'job.created') return;
  await invokeAsync(config.JOB_WORKER_FUNCTION, { org_id: event.org_id, job_id: event.subject.id });
};
