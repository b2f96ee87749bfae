/**
 * The job sweeper, invoked every minute (an EventBridge rule in AWS; a timer in `npm start`): starts a
 * worker for every unfinished job whose worker's lease has run out (it died, or its start was lost).
 */
// Every declaration and route registered first: the engine finds types and routes by name (shared/routes.ts).
import '#shared/routes';
import { sweepJobs } from './worker';

export const handler = async (_event?: unknown, now = Date.now()) => sweepJobs(now);
