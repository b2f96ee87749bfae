/**
 * Escalating an unacknowledged envelope (due-work kind `notification-ack-escalation`, due at its
 * acknowledgement record's `escalate_at`): its e-mail is sent to its recipient again, whatever their
 * preferences (an acknowledgement cannot be muted), and each active member of the sender's team gets an
 * envelope saying who has not acknowledged what. Then the record is marked escalated (its
 * `notification.escalated` event, audited) and its due keys removed, in one write refused if it was
 * acknowledged meanwhile.
 *
 * A re-run is safe: an acknowledged or escalated record is left alone, and the team's envelopes are put
 * under UUIDv5(escalation id, member), so a run that failed after writing them writes none twice. Only the
 * e-mail may go twice, when a run fails between sending it and marking the record.
 */
import { users } from '#functions/people/users';
import { sendEmail } from '#shared/data/email';
import { uuidv5 } from '#shared/data/ids';
import { batchGetInScope, getItem } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import type { NotificationCategory, NotificationSeverity } from '#shared/domain/notification-rules';
import type { DueWork } from '#shared/engine/due-work-kind';
import { type Envelope, writeEnvelopes } from './envelopes';
import { readEnvelope } from './inbox-state';
import { membersOfTeams } from './notice-recipients';

/** The namespace of escalation ids: an escalation is one per acknowledgement record. */
const ESCALATION = 'c4a3f0d2-6a51-5f0e-9d43-2b7e8f1a9c10';

/** The id the sender team's envelopes are told as coming from: one per acknowledgement record. */
export const escalationId = (acknowledgementId: string) => uuidv5(acknowledgementId, ESCALATION);

type Acknowledgement = StoredResource & { user_id: string };

const nameOf = (user: StoredResource | undefined) => {
  const personal = (user?.attributes.profile as { personal?: { first_name?: string; last_name?: string } })
    ?.personal;
  const name = [personal?.first_name, personal?.last_name].filter(Boolean).join(' ');
  return name || 'A recipient';
};

export const escalateUnacknowledged: DueWork = async (entry, now) => {
  const record = await getItem<Acknowledgement>({ pk: entry.pk, sk: entry.sk }, true);
  if (!record || record.attributes.acknowledged_at || record.attributes.escalated_at) return;
  const orgId = record.org_id;
  const scope = scopeOf([orgId]);
  const team = typeof record.rels.sender_team === 'string' ? record.rels.sender_team : null;
  const [envelope, members] = await Promise.all([
    readEnvelope(record.user_id, record.id, true),
    team ? membersOfTeams(scope, orgId, [team]).then((found) => found.get(team) ?? []) : [],
  ]);
  const people = await batchGetInScope(
    scope,
    [...new Set([record.user_id, ...members])].map((id) => users.keyOf(orgId, id)),
  );
  const byId = new Map(people.map((user) => [user.id, user]));
  const recipient = byId.get(record.user_id);
  const title = String(envelope?.attributes.title ?? 'A notification');
  if (envelope && recipient?.attributes.status === 'active')
    await sendEmail({
      to: String(recipient.attributes.email),
      subject: `Please acknowledge: ${title}`,
      text: `${String(envelope.attributes.body)}\n\nThis notification asks you to acknowledge it, and you have not yet: open it in your inbox and acknowledge it.`,
    });
  const event = { id: escalationId(record.id), name: 'notification.escalated' };
  const [subjectType = '', subjectId = ''] = String(record.rels.subject).split(':');
  const told: Envelope[] = members
    .filter((member) => byId.get(member)?.attributes.status === 'active')
    .map((member) => ({
      recipient: member,
      org_id: orgId,
      event,
      subject: { type: subjectType, id: subjectId },
      actor: null,
      category: (envelope?.attributes.category as NotificationCategory | undefined) ?? 'safety',
      severity: (envelope?.attributes.severity as NotificationSeverity | undefined) ?? 'warning',
      title: `${nameOf(recipient)} has not acknowledged "${title}"`,
      body: `${nameOf(recipient)} was asked to acknowledge "${title}" and has not, by ${String(record.attributes.escalate_at)}.`,
      // The subject may be one the team member may not read: no link.
      link: null,
      requires_ack: false,
      channels: { email: false },
    }));
  await writeEnvelopes(told, () => now);
  const { gsi1pk: _due, gsi1sk: _dueAt, ...kept } = record as Acknowledgement & Record<string, unknown>;
  try {
    await commit(scope, [
      {
        replace: {
          ...kept,
          version: record.version + 1,
          attributes: { ...record.attributes, escalated_at: new Date(now).toISOString() },
        },
        was: record,
        as: 'escalated',
      },
    ]);
  } catch (error) {
    // Acknowledged meanwhile: the acknowledgement removed the entry; nothing more to do.
    if (!(error instanceof WriteRefused && error.code === 'stale')) throw error;
  }
};
