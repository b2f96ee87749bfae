/**
 * Delivering events to subscriptions. The event consumer (`consumer.ts`) makes one delivery per matching
 * subscription and attempts it at once; the due-work runner (every minute) attempts those whose next
 * attempt is due: a delivery is its own entry on the due index (`shared/data/due-work.ts`, `due-work.ts`
 * here), its due time its next attempt. Nothing here runs inside an API request:
 * a redelivery request only makes the delivery due now.
 *
 * Idempotent by event: a delivery's id is derived from (subscription, event) (UUIDv5), and it is created
 * only if absent, so a stream record delivered twice makes no second delivery. Each attempt first
 * claims the delivery (a versioned write moving its due time a lease ahead), so two runners, or the
 * consumer and a runner, never send the same attempt twice; an attempt whose result was never recorded
 * (a function that died) is retried once the lease has passed.
 */

import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import { v5 } from 'uuid';
import { eventResource } from '#functions/events/feed';
import type { Principal } from '#shared/auth/principal';
import { config } from '#shared/config';
import { fill } from '#shared/data/access-patterns';
import { type DueEntry, dueBound, dueKeys as dueIndexKeys } from '#shared/data/due-work';
import { EVENT_RETENTION_DAYS, eventPartition, readableEvent, type StoredEvent } from '#shared/data/events';
import { uuidv7 } from '#shared/data/ids';
import { getItem } from '#shared/data/repository';
import { countedDay, expiryOf } from '#shared/data/retention';
import { type Scope, scopeOf, systemActor } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import { sendWebhook } from '#shared/data/webhook-http';
import { changedRecord, newRecord } from '#shared/engine/record-writes';
import { log } from '#shared/http/log';
import { metric } from '#shared/http/metrics';
import { ConflictError } from '#shared/jsonapi/errors';
import { keptDeliveries, webhookDeliveries, webhookSubscriptions } from './definitions';
import { DELIVERY_ATTEMPT } from './due-work';
import { MAX_ATTEMPTS, nextAttemptAt, succeeded } from './rules/schedule';
import {
  checkMayHold,
  type StoredSubscription,
  signingSecrets,
  subscribedTo,
  subscriptionsOf,
} from './subscriptions';

/** One attempt may take this long, connection to the last byte kept (docs/webhooks.md). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** An attempt claimed but not recorded within this long is tried again (a function that died mid-way). */
export const CLAIM_LEASE_MS = 2 * 60_000;
/** Bytes of a receiver's answer kept on the attempt. */
export const EXCERPT_BYTES = 1024;
/** Attempts kept on a delivery (the schedule's eight, and redeliveries after them). */
const ATTEMPTS_KEPT = 20;

export interface Attempt {
  number: number;
  attempted_at: string;
  /** The receiver's HTTP status; null when none came (refused address, timeout, connection error). */
  status_code: number | null;
  duration_ms: number;
  response_excerpt: string;
  error: string | null;
  /** A redelivery a client asked for, after the schedule. */
  manual: boolean;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

const system = (orgId: string): Scope => scopeOf([orgId], undefined, systemActor('webhooks'));

export const deliveryId = (subscriptionId: string, eventId: string) => v5(eventId, subscriptionId);

/** The index keys of a delivery whose next attempt is due at `at` (epoch ms). */
const dueKeys = (id: string, at: number) => dueIndexKeys(DELIVERY_ATTEMPT.name, id, at);

const withoutDue = (record: StoredResource): StoredResource => {
  const { gsi1pk: _pk, gsi1sk: _sk, ...rest } = record;
  return rest;
};

const newDelivery = (subscription: StoredResource, event: StoredEvent, now: number): StoredResource => {
  const base = newRecord(
    webhookDeliveries,
    event.org_id,
    {
      attributes: {
        event_id: event.id,
        event_type: event.event,
        status: 'pending' satisfies DeliveryStatus,
        attempt_count: 0,
        next_attempt_at: new Date(now).toISOString(),
        attempts: [],
      },
      rels: { subscription: subscription.id },
    },
    new Date(now),
  );
  const id = deliveryId(subscription.id, event.id);
  return {
    ...base,
    id,
    sk: id,
    // A subscription's deliveries in order of creation (its delivery log, `keptDeliveries`).
    lsi1: fill(webhookDeliveries.keys['by-subscription'].sk, {
      subscription_id: subscription.id,
      created_id: uuidv7(now),
    }),
    // Claimed by its maker, which attempts it at once: the runner takes it only if that attempt is lost.
    ...dueKeys(id, now + CLAIM_LEASE_MS),
    expires_at: expiryOf(EVENT_RETENTION_DAYS, new Date(now)),
  };
};

/** The body every attempt of an event sends: the same bytes each time. */
export const payloadOf = (event: StoredEvent) =>
  JSON.stringify({ type: event.event, timestamp: event.occurred_at, data: eventResource(event) });

const readDelivery = (orgId: string, id: string) =>
  getItem<StoredResource>(webhookDeliveries.keyOf(orgId, id), true);

/** Claims a due delivery for one attempt: its due time moves a lease ahead, if nobody changed it first. */
const claim = async (delivery: StoredResource, now: number): Promise<StoredResource | null> => {
  const claimed = {
    ...changedRecord(webhookDeliveries, delivery, {}, new Date(now)),
    ...dueKeys(delivery.id, now + CLAIM_LEASE_MS),
  };
  try {
    await commit(system(delivery.org_id), [{ replace: claimed, was: delivery }]);
    return claimed;
  } catch (error) {
    if (error instanceof WriteRefused) return null;
    throw error;
  }
};

/** Marks the subscription failing (once): its schedule ran out on a delivery. */
const markFailing = async (subscriptionId: string, orgId: string, now: number) => {
  for (let tries = 0; tries < 3; tries++) {
    const current = await getItem<StoredSubscription>(
      webhookSubscriptions.keyOf(orgId, subscriptionId),
      true,
    );
    if (!current || current.attributes.status === 'failing') return;
    const next = changedRecord(
      webhookSubscriptions,
      current,
      { attributes: { status: 'failing', failing_since: new Date(now).toISOString() } },
      new Date(now),
    );
    try {
      await commit(system(orgId), [{ replace: next, was: current }]);
      metric('WebhookSubscriptionFailing');
      return;
    } catch (error) {
      if (!(error instanceof WriteRefused)) throw error;
    }
  }
};

/** What one attempt sends and how it went; refused addresses and lost subscriptions fail with a reason. */
const send = async (
  _delivery: StoredResource,
  subscription: StoredSubscription | null,
  event: StoredEvent | null,
  now: number,
): Promise<Omit<Attempt, 'number' | 'manual'>> => {
  const attempted_at = new Date(now).toISOString();
  const failed = (error: string) => ({
    attempted_at,
    status_code: null,
    duration_ms: 0,
    response_excerpt: '',
    error,
  });
  if (!subscription) return failed('The subscription was deleted.');
  if (subscription.attributes.enabled !== true) return failed('The subscription is disabled.');
  if (!event)
    return failed(
      `The event is no longer kept (${EVENT_RETENTION_DAYS} days): read the change feed instead.`,
    );
  const body = payloadOf(event);
  const secrets = await signingSecrets(subscription, now);
  // Standard Webhooks: several signatures, space-separated, while a rotated-out secret still signs.
  const signature = secrets.map((s) => new Webhook(s).sign(event.id, new Date(now), body)).join(' ');
  const started = performance.now();
  const outcome = await sendWebhook({
    url: String(subscription.attributes.url),
    headers: {
      'user-agent': 'compliance-api-webhooks/1',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(now / 1000)),
      'webhook-signature': signature,
    },
    body,
    timeoutMs: ATTEMPT_TIMEOUT_MS,
    allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
    excerptBytes: EXCERPT_BYTES,
  });
  return {
    attempted_at,
    status_code: outcome.status,
    duration_ms: Math.round(performance.now() - started),
    response_excerpt: outcome.excerpt,
    error: outcome.error ?? (succeeded(outcome.status) ? null : `The receiver answered ${outcome.status}.`),
  };
};

/**
 * One attempt of a claimed delivery, recorded: delivered; or due again by the schedule; or, after the
 * schedule's last attempt, failed, and its subscription failing. A redelivery is one attempt, no schedule.
 */
const attempt = async (claimed: StoredResource, now: number): Promise<DeliveryStatus> => {
  const { org_id: orgId } = claimed;
  const subscriptionId = String(claimed.rels.subscription);
  const eventId = String(claimed.attributes.event_id);
  const [subscription, event] = await Promise.all([
    getItem<StoredSubscription>(webhookSubscriptions.keyOf(orgId, subscriptionId), true),
    getItem<StoredEvent>({ pk: eventPartition(orgId), sk: eventId }).then((e) => e && readableEvent(e)),
  ]);
  const manual = claimed.attributes.redelivery_requested === true;
  const result = await send(claimed, subscription, event, now);
  const scheduled = Number(claimed.attributes.scheduled_attempts ?? 0) + (manual ? 0 : 1);
  const ok = succeeded(result.status_code) && result.error === null;
  // Nothing more to try: the subscription was deleted or disabled, or the event expired.
  const moot = subscription?.attributes.enabled !== true || !event;
  const next = ok || manual || moot ? null : nextAttemptAt(scheduled, now);
  const status: DeliveryStatus = ok ? 'delivered' : next === null ? 'failed' : 'pending';
  const count = Number(claimed.attributes.attempt_count ?? 0) + 1;
  const attempts = [
    ...((claimed.attributes.attempts as Attempt[]) ?? []),
    { number: count, ...result, manual },
  ].slice(-ATTEMPTS_KEPT);
  const recorded = changedRecord(
    webhookDeliveries,
    claimed,
    {
      attributes: {
        status,
        attempt_count: count,
        scheduled_attempts: scheduled,
        redelivery_requested: false,
        next_attempt_at: next === null ? null : new Date(next).toISOString(),
        attempts,
      },
    },
    new Date(now),
  );
  const stored = next === null ? withoutDue(recorded) : { ...recorded, ...dueKeys(claimed.id, next) };
  try {
    await commit(system(orgId), [{ replace: stored, was: claimed }]);
  } catch (error) {
    // Changed since the claim (a redelivery asked for meanwhile): it is due again and will be retried.
    if (!(error instanceof WriteRefused)) throw error;
  }
  log.info('webhook attempt', {
    delivery: claimed.id,
    subscription: subscriptionId,
    event: eventId,
    attempt: count,
    status_code: result.status_code,
    duration_ms: result.duration_ms,
    outcome: status,
  });
  if (status === 'failed' && !manual && !moot && scheduled >= MAX_ATTEMPTS)
    await markFailing(subscriptionId, orgId, now);
  return status;
};

/**
 * The webhook consumer's work for one event: a delivery for each of the organisation's enabled, active
 * subscriptions that take it (one Query of its subscriptions), each attempted at once.
 */
export const deliverEvent = async (event: StoredEvent, now = Date.now()): Promise<void> => {
  const scope = system(event.org_id);
  const subscriptions = (await subscriptionsOf(scope, event.org_id)).filter(
    (s) =>
      s.attributes.enabled === true &&
      s.attributes.status === 'active' &&
      subscribedTo(s, event.event, event.subject.type),
  );
  await Promise.all(
    subscriptions.map(async (subscription) => {
      const delivery = newDelivery(subscription, event, now);
      try {
        await commit(scope, [
          { create: delivery },
          countedDay(keptDeliveries(event.org_id, subscription.id), new Date(now)),
        ]);
      } catch (error) {
        // Made already: this event came again (the stream redelivers). Its attempt is the first one's.
        if (error instanceof WriteRefused && error.code === 'exists') return;
        throw error;
      }
      await attempt(delivery, now);
    }),
  );
};

/**
 * Due work (`due-work.ts`): a delivery whose next attempt is due at `now` is claimed and attempted, unless
 * it was taken by another run since the index was read, or finished.
 */
export const attemptDueDelivery = async (entry: DueEntry, now: number): Promise<DeliveryStatus | null> => {
  const delivery = await readDelivery(entry.org_id, entry.id);
  if (delivery?.attributes.status !== 'pending' || !delivery.gsi1sk) return null;
  if (delivery.gsi1sk > dueBound(now)) return null;
  const claimed = await claim(delivery, now);
  return claimed && attempt(claimed, now);
};

/**
 * A client's redelivery: one more attempt, due now, made by the due-work runner (within a minute) rather
 * than in the request, so a slow receiver never holds an API request. Answered with the delivery. A
 * delivery whose schedule is still running is 409: its next attempt is already coming.
 */
export const requestRedelivery = async (
  scope: Scope,
  delivery: StoredResource,
  principal: Principal | null | undefined,
  now = Date.now(),
): Promise<StoredResource> => {
  // A redelivery replays its subscription's stream, so it asks what a change of the subscription asks.
  // A deleted subscription receives nothing (the attempt fails as moot): nothing to judge.
  const subscription = await getItem<StoredSubscription>(
    webhookSubscriptions.keyOf(delivery.org_id, String(delivery.rels.subscription)),
    true,
  );
  if (subscription) checkMayHold(subscription, principal, 'Redelivering to this subscription');
  if (delivery.attributes.status === 'pending')
    throw new ConflictError(
      `This delivery is already due again (next attempt ${delivery.attributes.next_attempt_at}); redeliver once it has been delivered or has failed.`,
    );
  const next = {
    ...changedRecord(
      webhookDeliveries,
      delivery,
      {
        attributes: {
          status: 'pending',
          redelivery_requested: true,
          next_attempt_at: new Date(now).toISOString(),
        },
      },
      new Date(now),
    ),
    ...dueKeys(delivery.id, now),
  };
  await commit(scope, [{ replace: next, was: delivery }]).catch((error: unknown) => {
    if (error instanceof WriteRefused && error.code === 'stale')
      throw new ConflictError(
        'The delivery changed while this request was applied; read it again and retry.',
      );
    throw error;
  });
  return next;
};
