/**
 * The webhooks area's work due later: a delivery's next attempt (a retry by the schedule, a redelivery a
 * client asked for, or an attempt whose result was lost). The delivery is its own entry: its claim and
 * its recorded attempt move its due time. 200 a run, 8 at a time, each attempt bounded at 10 s.
 */
import { dueWorkKind } from '#shared/engine/due-work-kind';

export const DELIVERY_ATTEMPT = dueWorkKind(
  'webhook-delivery',
  { module: 'functions/webhooks/deliveries.ts', run: 'attemptDueDelivery' },
  { perRun: 200, inFlight: 8 },
);
