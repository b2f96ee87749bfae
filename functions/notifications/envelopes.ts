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
 * (`channels.inbox: false`) moves no count, so it commits without the state item. An envelope whose
 * e-mail waits for a digest commits with its line in the digest window and the window item made or
 * joined (`digest-lines.ts`): two items, and one a window per transaction.
 */

import { uuidv5, uuidv7 } from '#shared/data/ids';
import { type InboxPut, type InboxUpsert, putTogether, readConsistently } from '#shared/data/inbox';
import { TRANSACTION_MAX } from '#shared/data/transaction';
import { DataUnavailable } from '#shared/data/unavailable';
import type { NotificationCategory, NotificationSeverity } from '#shared/domain/notification-rules';
import { newAcknowledgement } from './acknowledgement-records';
import { digestLinePut, digestWindowUpsert } from './digest-lines';
import { arrivalEntry, envelopeKey, marksOf, readStates, type StoredEnvelope, statePut } from './inbox-state';
import { type DigestPlan, windowEnd } from './rules/digest-windows';
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
   * expires as any other. Absent: true. With `digest`, the e-mail waits for the digest window it falls in
   * (`digest-lines.ts`) instead of going at once.
   */
  channels: { inbox?: boolean; email: boolean; digest?: DigestPlan };
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

/** The end of the digest window an envelope written at `at` waits for (ISO 8601), if it waits for one. */
const digestWindowOf = (envelope: Envelope, at: number): string | null =>
  envelope.channels.email && envelope.channels.digest
    ? new Date(windowEnd(at, envelope.channels.digest)).toISOString()
    : null;

const stored = (
  envelope: Envelope,
  state: InboxStateItem,
  at: number,
  window: string | null,
): StoredEnvelope => {
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
          ? { status: 'pending', at: null, ...(window && { digest: window }) }
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

/**
 * Whether a stored envelope's e-mail is still to be sent at once: pending (wanted), claimed by nobody yet,
 * and not waiting for a digest (its window sends it, whatever the preferences say by a redelivery).
 */
const awaitsMail = (item: StoredEnvelope & { email_claimed_at?: string }) => {
  const email = (item.attributes.deliveries as { email?: { status?: string; digest?: string } } | undefined)
    ?.email;
  return email?.status === 'pending' && email.digest === undefined && item.email_claimed_at === undefined;
};

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
    const transactions: { users: string[]; puts: InboxPut[]; upserts: InboxUpsert[] }[] = [];
    for (const [user, own] of byRecipient) {
      if (own.size === 0) {
        byRecipient.delete(user);
        continue;
      }
      let state = states.get(user) as InboxStateItem;
      const at = now();
      const puts: InboxPut[] = [];
      let counted = false;
      // Digest windows this recipient's new lines join, with how many lines each.
      const windows = new Map<string, { orgId: string; window: string; lines: number }>();
      for (const envelope of own.values()) {
        const window = digestWindowOf(envelope, at);
        const item = stored(envelope, state, at, window);
        const acknowledgement = envelope.requires_ack
          ? [newAcknowledgement({ ...envelope, id: item.id }, at)]
          : [];
        const line = window
          ? [digestLinePut({ ...item, ...envelope, id: item.id, user_id: user }, window)]
          : [];
        const joined = window && `${envelope.org_id}#${window}`;
        const newWindow = joined && !windows.has(joined) ? 1 : 0;
        // The state item's put is the last of the transaction.
        if (
          puts.length + windows.size + newWindow + 1 + acknowledgement.length + line.length >
          TRANSACTION_MAX - 1
        )
          break;
        if (wantsInbox(envelope)) {
          counted = true;
          state = {
            ...state,
            counts: moved(state.counts, countName(marksOf(item)), tallyOf(marksOf(item), state), 1, at),
          };
        }
        puts.push(item as unknown as InboxPut, ...(acknowledgement as InboxPut[]), ...line);
        if (joined && window) {
          const joining = windows.get(joined) ?? { orgId: envelope.org_id, window, lines: 0 };
          windows.set(joined, { ...joining, lines: joining.lines + 1 });
        }
      }
      // Envelopes kept out of the inbox count nothing: the state item is written only for those it counts.
      if (counted) puts.push(statePut(user, { ...state, version: state.version + 1 }));
      const upserts = [...windows.values()].map(({ orgId, window, lines }) =>
        digestWindowUpsert(user, orgId, window, lines),
      );
      const last = transactions.at(-1);
      if (last && last.puts.length + last.upserts.length + puts.length + upserts.length <= TRANSACTION_MAX) {
        last.users.push(user);
        last.puts.push(...puts);
        last.upserts.push(...upserts);
      } else transactions.push({ users: [user], puts, upserts });
    }
    const results = await Promise.all(
      transactions.map(async (t) => ({ t, ok: await putTogether(t.puts, t.upserts) })),
    );
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
