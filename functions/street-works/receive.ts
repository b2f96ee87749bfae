/**
 * What a verified street-works delivery does. A notification becomes a protection record in the
 * organisation its reference routes to, and creates or moves the permit (or activity) it concerns; the
 * protection, the object and the message's dedup record commit in one transaction, so a redelivery, even
 * several at once, changes nothing. Subscription confirmations and unsubscriptions are recorded.
 */

import { config } from '#shared/config';
import { declareAccessPatterns, keyFrom, partitionFrom } from '#shared/data/access-patterns';
import { getConsistent, getItem } from '#shared/data/repository';
import { type Scope, scopeOf, systemActor } from '#shared/data/scope';
import { confirmSubscription } from '#shared/data/sns';
import type { ItemKey, StoredResource } from '#shared/data/stored-resource';
import { tenantPattern } from '#shared/data/stored-resource';
import { commit, type WriteOp, WriteRefused } from '#shared/data/transaction';
import { type SnsMessage, topicLocation } from '#shared/domain/sns-message';
import { changedRecord, newRecord } from '#shared/engine/record-writes';
import { ValidationError } from '#shared/jsonapi/errors';
import { permits, protections, streetWorks } from './definitions';
import {
  applyEvent,
  eventProblems,
  type ObjectState,
  organisationFor,
  type StreetWorksEvent,
} from './rules/events';

/** Dedup records outlive SNS's retry window (an hour at most) many times over. */
const DEDUP_SECONDS = 24 * 60 * 60;
const ATTEMPTS = 4;

const keys = /* @__PURE__ */ declareAccessPatterns('street-works/receive', {
  message: {
    index: 'table',
    pk: 'SNS#{topic}',
    sk: 'MESSAGE#{message_id}',
    about: 'an SNS message received (dedup); TTL 24 h',
  },
  subscription: {
    index: 'table',
    pk: 'SNS#{topic}',
    sk: 'SUBSCRIPTION',
    about: "the topic's confirmed subscription",
  },
  unrouted: {
    index: 'table',
    pk: 'STREET_WORKS#unrouted',
    sk: '{topic}#{message_id}',
    about: 'a notification no organisation takes, parked for an operator',
  },
  reference: {
    ...tenantPattern('street-works-references', '{object_type}#{reference}'),
    about: '`holder_id`: the permit or activity with this reference',
  },
});
const topicPartition = (topicArn: string) => partitionFrom(keys.message, { topic: topicArn });
const dedupKey = (m: SnsMessage): ItemKey =>
  keyFrom(keys.message, { topic: m.TopicArn, message_id: m.MessageId });
const referenceKey = (orgId: string, event: StreetWorksEvent): ItemKey =>
  keyFrom(keys.reference, {
    org_id: orgId,
    object_type: event.object_type,
    reference: event.object_reference,
  });

const parseEvent = (message: SnsMessage): StreetWorksEvent => {
  let event: unknown;
  try {
    event = JSON.parse(message.Message);
  } catch {
    throw new ValidationError({ detail: 'Message is not JSON.', source: { pointer: '/Message' } });
  }
  const problems = eventProblems(event);
  if (problems.length > 0) {
    throw new ValidationError({
      problems: problems.map((detail) => new ValidationError({ detail, source: { pointer: '/Message' } })),
    });
  }
  return event as StreetWorksEvent;
};

const attributesOf = (m: SnsMessage) =>
  Object.fromEntries(Object.entries(m.MessageAttributes ?? {}).map(([name, a]) => [name, a.Value]));

const stateOf = (record: StoredResource): ObjectState => ({
  status: (record.attributes.status as string | null) ?? null,
  work_status: (record.attributes.work_status as string | null) ?? null,
  latest_event_time: (record.attributes.latest_event_time as string | null) ?? null,
  usrn: (record.attributes.usrn as string | null) ?? null,
});

export type Processed = { protection: StoredResource; duplicate: boolean } | { unrouted: string };

/** The protection a message already made, for an answer to its redelivery. */
const alreadyProcessed = async (message: SnsMessage): Promise<Processed> => {
  const dedup = await getItem<{ org_id?: string; holder_id?: string }>(dedupKey(message), true);
  const { org_id: orgId, holder_id: id } = dedup ?? {};
  if (!orgId || !id) return { unrouted: message.MessageId };
  const protection = await getConsistent(scopeOf([orgId]), { ...protections.keyOf(orgId, id), orgId });
  if (!protection) throw new Error(`Dedup record names a missing protection ${id}`);
  return { protection, duplicate: true };
};

/** One attempt at the write, from the object's current state; `stale` when another event moved it first. */
const attempt = async (
  scope: Scope,
  orgId: string,
  message: SnsMessage,
  event: StreetWorksEvent,
  now: Date,
) => {
  const definition = event.object_type === 'PERMIT' ? permits : streetWorks;
  const claim = await getItem<{ holder_id?: string }>(referenceKey(orgId, event), true);
  const existing = claim?.holder_id
    ? await getConsistent(scope, { ...definition.keyOf(orgId, claim.holder_id), orgId })
    : null;
  const { state, applied } = applyEvent(existing ? stateOf(existing) : null, event);
  const fresh = newRecord(
    definition,
    orgId,
    { attributes: { reference: event.object_reference, ...state } },
    now,
  );
  const objectId = existing?.id ?? fresh.id;
  const protection = newRecord(
    protections,
    orgId,
    {
      attributes: {
        event_reference: event.event_reference,
        event_type: event.event_type,
        object_type: event.object_type,
        object_reference: event.object_reference,
        event_time: new Date(event.event_time).toISOString(),
        received_at: now.toISOString(),
        applied,
        event,
        message_attributes: attributesOf(message),
        sns: { topic_arn: message.TopicArn, message_id: message.MessageId, subject: message.Subject ?? null },
      },
      rels: event.object_type === 'PERMIT' ? { permit: objectId } : { street_work: objectId },
    },
    now,
  );
  const latest = applied
    ? { ...state, object_data: event.object_data ?? {}, message_attributes: attributesOf(message) }
    : {};
  const listed = (existing?.rels.protections as string[] | undefined) ?? [];
  const objectOps: WriteOp[] = existing
    ? [
        {
          replace: changedRecord(
            definition,
            existing,
            { attributes: latest, rels: { protections: [...listed, protection.id] } },
            now,
          ),
          was: existing,
        },
      ]
    : [
        {
          create: {
            ...fresh,
            attributes: { ...fresh.attributes, ...latest },
            rels: { protections: [protection.id] },
          },
        },
        { claim: { ...referenceKey(orgId, event), holder_id: objectId } },
      ];
  const dedup: WriteOp = {
    claim: {
      ...dedupKey(message),
      holder_id: protection.id,
      org_id: orgId,
      expires_at: Math.floor(now.getTime() / 1000) + DEDUP_SECONDS,
    },
  };
  await commit(scope, [dedup, { create: protection }, ...objectOps]);
  return protection;
};

export const processNotification = async (message: SnsMessage, now = new Date()): Promise<Processed> => {
  const event = parseEvent(message);
  const orgId = organisationFor(event.object_reference, config.STREET_WORKS_ORGANISATIONS);
  if (!orgId) {
    // Acknowledged (SNS would retry for nothing) and parked for an operator, once per message.
    const parked = {
      ...keyFrom(keys.unrouted, { topic: message.TopicArn, message_id: message.MessageId }),
      event,
      received_at: now.toISOString(),
    };
    await commit(scopeOf([]), [{ put: parked }]);
    return { unrouted: message.MessageId };
  }
  // Street Manager acts: the permit, activity and protection events say so.
  const scope = scopeOf([orgId], undefined, systemActor('street-manager'));
  for (let i = 0; i < ATTEMPTS; i++) {
    try {
      return { protection: await attempt(scope, orgId, message, event, now), duplicate: false };
    } catch (error) {
      if (!(error instanceof WriteRefused)) throw error;
      if (error.op === 0) return alreadyProcessed(message);
    }
  }
  throw new Error(`Street-works object ${event.object_reference} kept changing under ${ATTEMPTS} attempts`);
};

/** Confirms the subscription (never by fetching SubscribeURL) and records it. */
export const confirm = async (message: SnsMessage, now = new Date()) => {
  const location = topicLocation(message.TopicArn);
  if (!location) throw new Error('A verified message has a valid TopicArn');
  const subscriptionArn = await confirmSubscription(location.region, message.TopicArn, message.Token ?? '');
  await recordSubscription(message, 'confirmed', now, subscriptionArn);
  return subscriptionArn;
};

export const recordSubscription = (
  message: SnsMessage,
  status: 'confirmed' | 'unsubscribed',
  now: Date,
  arn?: string,
) => {
  const subscription = {
    pk: topicPartition(message.TopicArn),
    sk: 'SUBSCRIPTION',
    status,
    subscription_arn: arn ?? null,
    message_id: message.MessageId,
    recorded_at: now.toISOString(),
  };
  return commit(scopeOf([]), [{ put: subscription }]);
};
