/**
 * Writing envelopes: what the event consumer (a later part of issue 43) calls with envelopes it has
 * rendered. Each is put if absent under its deterministic id, UUIDv5(event id, namespace = the recipient's
 * id), in the transaction that moves its recipient's counts on the inbox's state item, whose version was
 * read and is checked: a redelivered event writes nothing twice and still writes what is missing, and a
 * "mark all" between the read and the write sends the write round again, never losing a count.
 *
 * Calls: one BatchGetItem per 100 keys (each recipient's state item and each envelope's key, read
 * consistently), then TransactWriteItems of at most 100 puts (a recipient's new envelopes and its state
 * item): a fresh event to 1,000 recipients is 20 BatchGetItem and 20 TransactWriteItems. An
 * acknowledgement-required envelope commits with its acknowledgement record (`acknowledgements.ts`), in
 * the organisation's partition, armed to escalate: two puts. An envelope kept out of the inbox
 * (`channels.inbox: false`) moves no count, so it commits without the state item.
 */

import { uuidv5, uuidv7 } from '#shared/data/ids';
import { type InboxPut, putTogether, readConsistently } from '#shared/data/inbox';
import { TRANSACTION_MAX } from '#shared/data/transaction';
import { DataUnavailable } from '#shared/data/unavailable';
import type { NotificationCategory, NotificationSeverity } from '#shared/domain/notification-rules';
import { newAcknowledgement } from './acknowledgement-records';
import { arrivalEntry, envelopeKey, marksOf, readStates, type StoredEnvelope, statePut } from './inbox-state';
import { countName, expiryOfArrival, type InboxStateItem, moved, tallyOf } from './rules/inbox-state';

/** An envelope rendered for one recipient: what the inbox keeps of an event for them. */
export interface Envelope {
  recipient: string;
  org_id: string;
  event: { id: string; name: string };
  subject: { type: string; id: string };
  /** Who acted: a user or a service account; null for the system. */
  actor: { type: 'users' | 'service-accounts'; id: string } | null;
  category: NotificationCategory;
  severity: NotificationSeverity;
  title: string;
  body: string;
  /** The subject's API path, or null where the recipient may not read the subject. */
  link: string | null;
  requires_ack: boolean;
  /**
   * The channels wanted, as the recipient's preferences decided. `inbox: false` (a category whose inbox
   * is off, e-mail on) writes the envelope out of the inbox: no arrival entry (the listing's sparse index
   * never holds it), not counted, 404 to its recipient; it is only its e-mail's claim and record, and
   * expires as any other. Absent: true.
   */
  channels: { inbox?: boolean; email: boolean };
  /**
   * Where `requires_ack`: when, unacknowledged, it escalates (a notice's `escalate_after`; a rule's
   * envelope 2 hours) and to which team (a notice's `sender_team`; a rule's none).
   */
  escalation?: { after_seconds: number; sender_team: string | null };
}

/** An envelope's id: one per event and recipient, whatever the redelivery. */
export const envelopeId = (eventId: string, recipient: string) => uuidv5(eventId, recipient);

const ATTEMPTS = 6;

/** Whether the envelope goes into its recipient's inbox (listed and counted), not only into their mail. */
const wantsInbox = (envelope: Envelope) => envelope.channels.inbox !== false;

const stored = (envelope: Envelope, state: InboxStateItem, at: number): StoredEnvelope => {
  const id = envelopeId(envelope.event.id, envelope.recipient);
  const arrival = uuidv7(at);
  const now = new Date(at).toISOString();
  return {
    ...envelopeKey(envelope.recipient, id),
    type: 'notifications',
    id,
    org_id: envelope.org_id,
    user_id: envelope.recipient,
    arrival,
    ...(wantsInbox(envelope) && { lsi1: arrivalEntry(arrival) }),
    expires_at: expiryOfArrival(arrival),
    version: 1,
    marked: {
      seen: state.watermarks.seen.generation,
      read: state.watermarks.read.generation,
      archived: state.watermarks.archived.generation,
    },
    attributes: {
      category: envelope.category,
      severity: envelope.severity,
      title: envelope.title,
      body: envelope.body,
      link: envelope.link,
      event: envelope.event,
      requires_ack: envelope.requires_ack,
      acknowledged_at: null,
      state: 'unseen',
      saved: false,
      archived: false,
      deliveries: {
        inbox: wantsInbox(envelope)
          ? { status: 'sent', at: now }
          : { status: 'suppressed', at: now, reason: 'preferences' },
        email: envelope.channels.email
          ? { status: 'pending', at: null }
          : { status: 'suppressed', at: now, reason: 'preferences' },
      },
    },
    meta: { created_at: now },
    rels: {
      subject: `${envelope.subject.type}:${envelope.subject.id}`,
      actor: envelope.actor && `${envelope.actor.type}:${envelope.actor.id}`,
    },
  };
};

/** Whether a stored envelope's e-mail is still to be sent: pending (wanted), and claimed by nobody yet. */
const awaitsMail = (item: StoredEnvelope & { email_claimed_at?: string }) =>
  (item.attributes.deliveries as { email?: { status?: string } } | undefined)?.email?.status === 'pending' &&
  item.email_claimed_at === undefined;

/** What `writeEnvelopes` did. */
export interface WrittenEnvelopes {
  /** How many envelopes it wrote (none for a full redelivery). */
  written: number;
  /**
   * The envelopes handed in whose e-mail is still to be sent: written now with e-mail wanted, or found
   * already written with it pending and unclaimed (a crash between a write and its mail). What was mailed
   * or claimed before is not among them, so a redelivery tries nothing it finished.
   */
  unmailed: Envelope[];
}

/**
 * Writes the envelopes that are not there yet, each exactly once, with their recipients' counts. Answers
 * how many it wrote and which still await their mail.
 */
export const writeEnvelopes = async (
  envelopes: readonly Envelope[],
  now = Date.now,
): Promise<WrittenEnvelopes> => {
  const byRecipient = new Map<string, Map<string, Envelope>>();
  for (const envelope of envelopes) {
    const own = byRecipient.get(envelope.recipient) ?? new Map<string, Envelope>();
    own.set(envelopeId(envelope.event.id, envelope.recipient), envelope);
    byRecipient.set(envelope.recipient, own);
  }
  let written = 0;
  const unmailed: Envelope[] = [];
  // Rounds a transaction was refused in (an inbox changed since it was read); rounds that only go on
  // writing a recipient's next 99 envelopes do not count.
  let refused = 0;
  while (byRecipient.size > 0) {
    if (refused === ATTEMPTS)
      throw new DataUnavailable('The inboxes kept changing while envelopes were written');
    const recipients = [...byRecipient.keys()];
    const [states, present] = await Promise.all([
      readStates(recipients),
      readConsistently<StoredEnvelope>(
        [...byRecipient].flatMap(([user, own]) => [...own.keys()].map((id) => envelopeKey(user, id))),
      ),
    ]);
    for (const item of present) {
      const own = byRecipient.get(item.user_id);
      const envelope = own?.get(item.id);
      if (envelope && awaitsMail(item)) unmailed.push(envelope);
      own?.delete(item.id);
    }
    // Each recipient's new envelopes (at most 99 a round) and its state item, packed into transactions.
    const transactions: { users: string[]; puts: InboxPut[] }[] = [];
    for (const [user, own] of byRecipient) {
      if (own.size === 0) {
        byRecipient.delete(user);
        continue;
      }
      let state = states.get(user) as InboxStateItem;
      const at = now();
      const puts: InboxPut[] = [];
      let counted = false;
      for (const envelope of own.values()) {
        const item = stored(envelope, state, at);
        const acknowledgement = envelope.requires_ack
          ? [newAcknowledgement({ ...envelope, id: item.id }, at)]
          : [];
        // The state item's put is the last of the transaction.
        if (puts.length + 1 + acknowledgement.length > TRANSACTION_MAX - 1) break;
        if (wantsInbox(envelope)) {
          counted = true;
          state = {
            ...state,
            counts: moved(state.counts, countName(marksOf(item)), tallyOf(marksOf(item), state), 1, at),
          };
        }
        puts.push(item as unknown as InboxPut, ...(acknowledgement as InboxPut[]));
      }
      // Envelopes kept out of the inbox count nothing: the state item is written only for those it counts.
      if (counted) puts.push(statePut(user, { ...state, version: state.version + 1 }));
      const last = transactions.at(-1);
      if (last && last.puts.length + puts.length <= TRANSACTION_MAX) {
        last.users.push(user);
        last.puts.push(...puts);
      } else transactions.push({ users: [user], puts });
    }
    const results = await Promise.all(transactions.map(async (t) => ({ t, ok: await putTogether(t.puts) })));
    if (results.some(({ ok }) => !ok)) refused++;
    for (const { t, ok } of results) {
      if (!ok) continue;
      // What committed is read as present next round; recipients with nothing left are done.
      written += t.puts.filter((put) => put.type === 'notifications').length;
      for (const user of t.users) {
        const own = byRecipient.get(user);
        for (const put of t.puts) {
          if (put.user_id !== user || put.type !== 'notifications') continue;
          const envelope = own?.get(String(put.id));
          if (envelope?.channels.email) unmailed.push(envelope);
          own?.delete(String(put.id));
        }
        if (own?.size === 0) byRecipient.delete(user);
      }
    }
  }
  return { written, unmailed };
};
