/**
 * The due-work runner: invoked every minute (one EventBridge rule in AWS; one timer in `npm start`), it
 * does the work whose time has come, of every kind the areas declare (`dueWork` in their manifests): jobs
 * whose worker died, webhook retries, automatic sign-outs, expiry warnings, recurring runs. Not a route.
 */
import { runDueWork } from '#shared/resources/due-work/run';
import { dueWorkKinds } from '#shared/routes';

/** One run at `now` (tests move it, for their own organisation's entries alone). */
export const runDue = (now = Date.now(), only: Parameters<typeof runDueWork>[2] = {}) =>
  runDueWork(dueWorkKinds, now, only);

export const handler = async (_event?: unknown, now = Date.now()) => runDue(now);
