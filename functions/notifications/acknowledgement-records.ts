/**
 * Acknowledgement records as stored (`acknowledgements.ts` declares them): their keys, and the record
 * `writeEnvelopes` puts beside a new acknowledgement-required envelope, armed to escalate. Apart from the
 * declaration so that a first read of the inbox loads none of it.
 */
import { keyFrom, partitionFrom } from '#shared/data/access-patterns';
import { dueKeys } from '#shared/data/due-keys';
import { ACK_ESCALATION, acknowledgements } from './acknowledgements';

/** A rule-made acknowledgement-required envelope escalates after this long (a notice names its own). */
export const DEFAULT_ESCALATE_AFTER_SECONDS = 2 * 3600;

export const acknowledgementKey = (orgId: string, eventId: string, id: string) =>
  keyFrom(acknowledgements.keys.record, { org_id: orgId, event_id: eventId, id });
export const eventAcknowledgements = (orgId: string, eventId: string) =>
  partitionFrom(acknowledgements.keys.record, { org_id: orgId, event_id: eventId });
export const subjectAcknowledgements = (orgId: string, subjectId: string) =>
  partitionFrom(acknowledgements.keys.subject, { org_id: orgId, subject_id: subjectId });

/** What an acknowledgement-required envelope's record is made from. */
export interface AcknowledgementSource {
  id: string;
  recipient: string;
  org_id: string;
  event: { id: string; name: string };
  subject: { type: string; id: string };
  escalation?: { after_seconds: number; sender_team: string | null };
}

/** The record written beside a new acknowledgement-required envelope, armed to escalate. */
export const newAcknowledgement = (source: AcknowledgementSource, at: number) => {
  const after = source.escalation?.after_seconds ?? DEFAULT_ESCALATE_AFTER_SECONDS;
  const escalateAt = at + after * 1000;
  return {
    ...acknowledgementKey(source.org_id, source.event.id, source.id),
    gsi2pk: subjectAcknowledgements(source.org_id, source.subject.id),
    gsi2sk: `${source.event.id}#${source.id}`,
    ...dueKeys(ACK_ESCALATION.name, source.id, escalateAt),
    type: 'notification-acknowledgements',
    id: source.id,
    org_id: source.org_id,
    user_id: source.recipient,
    event_id: source.event.id,
    subject_id: source.subject.id,
    version: 1,
    attributes: {
      event: source.event,
      acknowledged_at: null,
      escalate_at: new Date(escalateAt).toISOString(),
      escalated_at: null,
    },
    meta: { created_at: new Date(at).toISOString() },
    rels: {
      recipient: source.recipient,
      subject: `${source.subject.type}:${source.subject.id}`,
      sender_team: source.escalation?.sender_team ?? null,
    },
  };
};
