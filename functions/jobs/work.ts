/**
 * The job worker (invoked asynchronously: by the event consumer when a job is created, by the due-work runner,
 * and by itself to go on with a job in a fresh invocation). Not a route: no request waits on it.
 */
// Every declaration and route registered first: the engine finds types and routes by name (shared/routes.ts).
import '#shared/routes';
import './kinds';
import { type JobRef, runJob } from './worker';

export const handler = async (event: JobRef) => runJob(event);
