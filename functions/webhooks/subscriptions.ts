/**
 * Webhook subscriptions: what a client asks to receive, where, and the secret deliveries are signed
 * with. The secret (`whsec_` + base64 of 32 random bytes, the Standard Webhooks format) is answered once,
 * when it is made, and kept only encrypted (`shared/data/webhook-secrets.ts`), outside the attributes, so
 * no read, event or log ever carries it. Rotating keeps the previous secret signing for 24 hours, so a
 * receiver can switch without missing a delivery.
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { config } from '#shared/config';
import { eventNames, typesNamed } from '#shared/data/events';
import { readPartition } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { decryptSecret, encryptSecret } from '#shared/data/webhook-secrets';
import { changedRecord, commitChecked, deleteRecord, newRecord } from '#shared/engine/record-writes';
import { viewPermissions } from '#shared/http/read-permissions';
import { freeText, url } from '#shared/jsonapi/attribute-types';
import { ForbiddenError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, createDocument, parseDocument } from '#shared/jsonapi/request-document';
import { webhookSubscriptions } from './definitions';
import { ALL_EVENTS, judgeUrl, receives } from './rules/subscriptions';

/** How long a rotated-out secret still signs: a day for the receiver to deploy the new one. */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;
/** `event_types` lists at most this many names. */
const EVENT_TYPES_MAX = 100;

export interface StoredSecret {
  /** The secret, encrypted (`<scheme>:<base64>`). */
  ciphertext: string;
  created_at: string;
  /** Set once rotated out: it signs until then. */
  expires_at?: string;
}

export type StoredSubscription = StoredResource & { secrets: StoredSecret[] };

export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const eventTypes = z.lazy(() => z.array(z.string().max(200)).min(1).max(EVENT_TYPES_MAX));
const description = z.lazy(() => freeText(2000));
const subscriptionUrl = z.lazy(() => url(2000));

export const createSubscriptionDocument = z.lazy(() =>
  createDocument(
    'webhook-subscriptions',
    {
      url: subscriptionUrl,
      event_types: eventTypes,
      enabled: z.boolean().default(true),
      description: description.default(''),
    },
    {},
  ),
);

export const updateSubscriptionDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('webhook-subscriptions'),
      id: z.uuid(),
      attributes: z
        .strictObject({
          url: subscriptionUrl.optional(),
          event_types: eventTypes.optional(),
          enabled: z.boolean().optional(),
          description: description.optional(),
        })
        .optional(),
    }),
  }),
);

/** Events of records private to their creator (exports) are never delivered: no subscriber may read them all. */
const privateType = (type: string) => viewPermissions().get(type) === 'authenticated';
const typesOfEvent = (name: string) => typesNamed(name.slice(0, name.lastIndexOf('.')));

/** Whether a subscription's event types take this event (`*` takes every event but private ones). */
export const subscribedTo = (subscription: StoredResource, name: string, subjectType: string): boolean =>
  !privateType(subjectType) && receives(subscription.attributes.event_types as string[], name);

const checkUrl = (value: string) => {
  const verdict = judgeUrl(value, config.WEBHOOK_ALLOW_LOOPBACK);
  if (!verdict.allowed)
    throw new ValidationError({ detail: verdict.reason, source: { pointer: '/data/attributes/url' } });
};

/** Every name must be an event the service emits (or `*` alone), and none of a private type. */
const checkEventNames = (names: readonly string[]) => {
  const pointer = '/data/attributes/event_types';
  const known = new Set(eventNames());
  if (names.includes(ALL_EVENTS) && names.length > 1)
    throw new ValidationError({
      detail: '"*" stands alone: it already means every event.',
      source: { pointer },
    });
  for (const name of names) {
    if (name === ALL_EVENTS) continue;
    if (!known.has(name))
      throw new ValidationError({
        detail: `No event is named ${name}: names are <resource>.<action>, e.g. vehicle.created, or "*".`,
        source: { pointer },
      });
    if (typesOfEvent(name).some(privateType))
      throw new ValidationError({
        detail: `${name} events are private to their creator and are not delivered by webhook.`,
        source: { pointer },
      });
  }
};

/** The read permissions of the records these events carry that the caller does not hold in `orgId`. */
const permissionsLacked = (
  names: readonly string[],
  orgId: string,
  principal: Principal | null | undefined,
): string[] => {
  const granted = principal?.permissions.get(orgId);
  const types = names.includes(ALL_EVENTS) ? [...viewPermissions().keys()] : names.flatMap(typesOfEvent);
  const lacked = types
    .map((type) => viewPermissions().get(type))
    .filter(
      (permission): permission is string =>
        permission !== undefined && permission !== 'authenticated' && !granted?.has(permission as never),
    );
  return [...new Set(lacked)];
};

/**
 * Whoever subscribes, re-points, enables, rotates the secret of, or redelivers to a subscription must
 * hold the read permission of every record its events carry: otherwise `webhooks:manage` alone would
 * receive (at a URL of its choosing, or with a secret it learns) records its holder could not read
 * through the change feed. Judged on the subscription as the request leaves it, so narrowing the events
 * of one's own subscription is allowed and re-pointing another's wider one is not.
 */
export const checkMayHold = (
  subscription: { org_id: string; attributes: Record<string, unknown> },
  principal: Principal | null | undefined,
  doing: string,
) => {
  const lacked = permissionsLacked(
    subscription.attributes.event_types as string[],
    subscription.org_id,
    principal,
  );
  if (lacked.length > 0)
    throw new ForbiddenError(
      `${doing} needs ${lacked.join(', ')}: a subscription carries the records its events name, and you may not read them.`,
    );
};

const owner = (record: StoredResource) => ({ org_id: record.org_id, subscription_id: record.id });

export const createSubscription = async (
  scope: Scope,
  orgId: string,
  body: unknown,
  principal: Principal | null | undefined,
  now = new Date(),
): Promise<{ record: StoredSubscription; secret: string }> => {
  const { data } = parseDocument(createSubscriptionDocument, body);
  checkUrl(data.attributes.url);
  checkEventNames(data.attributes.event_types);
  checkMayHold({ org_id: orgId, attributes: data.attributes }, principal, 'Subscribing to these events');
  const base = newRecord(
    webhookSubscriptions,
    orgId,
    { attributes: { ...data.attributes, status: 'active', failing_since: null } },
    now,
  );
  const secret = newSigningSecret();
  const record: StoredSubscription = {
    ...base,
    secrets: [{ ciphertext: await encryptSecret(secret, owner(base)), created_at: now.toISOString() }],
  };
  await commitChecked(scope, [{ create: record }], []);
  return { record, secret };
};

/** Any change makes a failing subscription active again: the client has looked at it (see docs/webhooks.md). */
export const updateSubscription = async (
  scope: Scope,
  record: StoredSubscription,
  body: unknown,
  principal: Principal | null | undefined,
): Promise<StoredSubscription> => {
  const { data } = parseDocument(updateSubscriptionDocument, body);
  assertSameId(data.id, record.id);
  const attributes = data.attributes ?? {};
  if (attributes.url !== undefined) checkUrl(attributes.url);
  if (attributes.event_types !== undefined) checkEventNames(attributes.event_types);
  const next = changedRecord(webhookSubscriptions, record, {
    attributes: { ...attributes, status: 'active', failing_since: null },
  }) as StoredSubscription;
  checkMayHold(next, principal, 'Changing this subscription');
  await commitChecked(scope, [{ replace: next, was: record }], []);
  return next;
};

export const deleteSubscription = (scope: Scope, record: StoredResource) => deleteRecord(scope, record);

/** A new secret, answered once; the one it replaces signs for 24 hours more, any older one no longer. */
export const rotateSecret = async (
  scope: Scope,
  record: StoredSubscription,
  principal: Principal | null | undefined,
  now = new Date(),
): Promise<{ record: StoredSubscription; secret: string }> => {
  checkMayHold(record, principal, "Rotating this subscription's secret");
  const secret = newSigningSecret();
  const [current] = (record.secrets ?? []).filter((s) => s.expires_at === undefined);
  const retiring = current
    ? [{ ...current, expires_at: new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString() }]
    : [];
  const next = {
    ...changedRecord(webhookSubscriptions, record, {}, now),
    secrets: [
      { ciphertext: await encryptSecret(secret, owner(record)), created_at: now.toISOString() },
      ...retiring,
    ],
  };
  await commitChecked(scope, [{ replace: next, was: record }], []);
  return { record: next, secret };
};

/** The secrets that sign at `now`: the current one, and a rotated-out one within its 24 hours. */
export const signingSecrets = (record: StoredSubscription, now: number): Promise<string[]> =>
  Promise.all(
    (record.secrets ?? [])
      .filter((s) => s.expires_at === undefined || Date.parse(s.expires_at) > now)
      .map((s) => decryptSecret(s.ciphertext, owner(record))),
  );

/** The organisation's subscriptions: one Query of its partition (a handful of records). */
export const subscriptionsOf = (scope: Scope, orgId: string) =>
  readPartition(scope, orgId, webhookSubscriptions.type) as Promise<StoredSubscription[]>;

/** The secret answered once, in the attributes of the create or rotate answer. */
export const withSecret = <T extends { attributes: Record<string, unknown> }>(
  resource: T,
  secret: string,
): T => ({
  ...resource,
  attributes: { ...resource.attributes, secret },
});
