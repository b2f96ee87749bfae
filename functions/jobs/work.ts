/**
 * The job worker (invoked asynchronously: by the event consumer when a job is created, by the due-work runner,
 * and by itself to go on with a job in a fresh invocation). Not a route: no request waits on it.
 */
import '#shared/resources/jobs/kinds';
import { type JobRef, runJob } from '#shared/resources/jobs/worker';

export const handler = async (event: JobRef) => runJob(event);
