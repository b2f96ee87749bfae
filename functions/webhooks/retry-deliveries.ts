/**
 * The webhook retry runner: invoked every minute (an EventBridge rule in AWS; a timer in `npm start`), it
 * attempts every delivery whose next attempt is due. Not a route: no request ever waits on it.
 */
// Every declaration and route registered first: the engine finds types and routes by name (shared/routes.ts).
import '#shared/routes';
import { runDueDeliveries } from './deliveries';

export const handler = async (_event?: unknown, now = Date.now()) => runDueDeliveries(now);
