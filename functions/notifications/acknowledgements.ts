/**
 * Acknowledgements (`notification-acknowledgements`): one record per acknowledgement-required envelope,
 * written with it by `writeEnvelopes`, in the organisation's partition (an envelope lives in its
 * recipient's): who must acknowledge which event, and when they did. It is what the organisation sees of
 * an acknowledgement-required message, so, unlike the envelope, its changes are events
 * (`notification.acknowledged`, `notification.escalated`): audited, in the change feed, and delivered to
 * webhooks. Its id is its envelope's (UUIDv5(event id, namespace = the recipient's id)).
 *
 * One partition per event (`…#<event_id>`), so "who has acknowledged this event" is one Query reading
 * exactly what it answers, and no organisation's collection grows past an event's recipients; a subject's
 * (a notice's) records are on `gsi2`. While unacknowledged and not yet escalated, the record carries the
 * due-work keys of its escalation (`notification-ack-escalation`), which acknowledging removes.
 */
import { dueWorkKind } from '#shared/engine/due-work-kind';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import { SUBJECT_TYPES } from './definitions';

/** The due-work kind that escalates an unacknowledged envelope, due at its record's `escalate_at`. */
export const ACK_ESCALATION = dueWorkKind('notification-ack-escalation', {
  module: 'functions/notifications/ack-escalation.ts',
  run: 'escalateUnacknowledged',
});

export const acknowledgements = defineResource({
  type: 'notification-acknowledgements',
  // Its events are `notification.acknowledged` and `notification.escalated`: named for what the
  // organisation sees happen to a notification.
  names: { one: 'Notification', many: 'Notification acknowledgements' },
  collectionPath: '/v3/orgs/{org_id}/notification-acknowledgements',
  permission: 'notification-acknowledgements',
  events: ['acknowledged', 'escalated'],
  keys: {
    record: {
      index: 'table',
      pk: 'ORG#{org_id}#notification-acknowledgements#{event_id}',
      sk: '{id}',
      about:
        "an acknowledgement-required envelope's acknowledgement, in the organisation's partition of its event (id = the envelope's): every recipient of an event in one Query",
    },
    subject: {
      index: 'gsi2',
      pk: 'ORG#{org_id}#notification-acknowledgements#subject#{subject_id}',
      sk: '{event_id}#{id}',
      about: "an acknowledgement under its event's subject: `filter[notice]` (a notice's `notice.created`)",
    },
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    return {
      event: z.strictObject({ id: z.string(), name: z.string() }).describe('The event the envelope told.'),
      acknowledged_at: instant().nullable().describe('Null until the recipient acknowledges.'),
      escalate_at: instant().describe('When, still unacknowledged, it is re-sent and escalated.'),
      escalated_at: instant().nullable(),
    };
  },
  relationships: {
    recipient: { type: 'users' },
    subject: { types: SUBJECT_TYPES },
    sender_team: { type: 'teams' },
  },
});
