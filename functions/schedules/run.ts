/**
 * The schedule runner: invoked every minute (an EventBridge rule in AWS; a timer in `npm start`), it does
 * the scheduled work that is due (automatic sign-outs, qualification expiry warnings). Not a route.
 */
// Every declaration and route registered first: the engine finds types and routes by name (shared/routes.ts).
import '#shared/routes';
import { runDueSchedules } from './runner';

export const handler = async (_event?: unknown, now = Date.now()) => runDueSchedules(now);
