/**
 * Mailing a digest window (due-work kind `notification-digest`, due at the window's end): one Query of
 * its lines (items read = lines listed), one read of the user's record and preferences, ONE e-mail listing
 * the lines (`digest-mail.ts`), then each line's envelope settled (`deliveries.email` `sent`, with its
 * `at`, `message_id` and `digest`) and the line removed, 50 lines a transaction, and the window removed.
 *
 * The window item is the claim: a run mails only after claiming it unclaimed and holding exactly the
 * lines it read (one conditional UpdateItem), and records what became of the mail on the claim. A re-run
 * of a claimed window (a run that failed after its claim) never mails again: it settles the claimed lines
 * with what the claim recorded, or `failed` ("interrupted") where the mail's fate was never recorded, as
 * `claimEmail` leaves one envelope. A line written after the claim (its envelope's write committing just
 * after the window's end) is left for the window's next run, a minute later, in a mail of its own.
 *
 * Not sent, the lines dropped and their envelopes' e-mail `suppressed`: every line when the user is no
 * longer an active user of the organisation (their record there gone, suspended or deactivated); the
 * lines of a category whose e-mail they have switched off since (an unsubscribe mid-window). A category
 * switched from a digest back to `off` (each at once) mid-window keeps what its window gathered: it goes
 * in this digest; its next envelopes go at once.
 */
import { users } from '#functions/people/users';
import { sendEmail } from '#shared/data/email';
import {
  claimWindow,
  finishWindow,
  queryByPrefix,
  recordWindowDelivery,
  settleLines,
} from '#shared/data/inbox-digests';
import { batchGet, getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import type { NotificationCategory } from '#shared/domain/notification-rules';
import type { DueWork } from '#shared/engine/due-work-kind';
import { type DigestClaim, type DigestLine, type DigestWindow, digestLinesPrefix } from './digest-lines';
import { digestMail } from './digest-mail';
import { envelopeKey } from './inbox-state';
import { preferencesKey } from './preferences';
import { type PreferencesChange, preferencesOf } from './rules/preferences';

const NOT_A_MEMBER = 'the recipient is no longer an active user of the organisation';

/** Who the digest goes to, and which of its categories they have since switched e-mail off for. */
const recipientOf = async (window: DigestWindow) => {
  const userKey = users.keyOf(window.org_id, window.user_id);
  const prefsKey = preferencesKey(window.user_id, window.org_id);
  const found = await batchGet<Record<string, unknown>>([userKey, prefsKey]);
  const user = found.find((item) => item.sk === userKey.sk) as StoredResource | undefined;
  const prefs = found.find((item) => item.sk === prefsKey.sk) as PreferencesChange | undefined;
  const { channels } = preferencesOf(prefs ?? null);
  const muted = Object.entries(channels).flatMap(([category, { email }]) => (email ? [] : [category]));
  const active = user?.attributes.status === 'active';
  return { active, to: active ? String(user?.attributes.email ?? '') : '', muted };
};

/** What the claimed run's one mail became: sent, failed, or nothing to send. */
const mailed = async (
  window: DigestWindow,
  lines: readonly DigestLine[],
  recipient: { active: boolean; to: string },
  now: number,
): Promise<Record<string, string>> => {
  const at = () => new Date(Math.max(now, Date.now())).toISOString();
  const { active, to } = recipient;
  if (!active) return { status: 'suppressed', at: at(), reason: NOT_A_MEMBER };
  if (lines.length === 0) return { status: 'suppressed', at: at(), reason: 'preferences' };
  if (!to) return { status: 'failed', at: at(), reason: 'the user has no e-mail address' };
  return sendEmail(await digestMail(window.user_id, window.org_id, lines, to)).then(
    (messageId) => ({ status: 'sent', at: at(), message_id: messageId }),
    (error: unknown) => ({
      status: 'failed',
      at: at(),
      reason: error instanceof Error ? error.name : 'the mail could not be sent',
    }),
  );
};

export const sendDigest: DueWork = async (entry, now) => {
  const key = { pk: entry.pk, sk: entry.sk };
  const window = await getItem<DigestWindow>(key, true);
  if (!window) return;
  const read = await queryByPrefix<DigestLine>(window.pk, digestLinesPrefix(window.org_id, window.window));
  let claim: DigestClaim | undefined = window.claim;
  let lines = read;
  if (claim) {
    const through = claim.through;
    lines = read.filter((line) => line.sk <= through);
  } else {
    const recipient = await recipientOf(window);
    const { active, muted } = recipient;
    claim = {
      at: new Date(now).toISOString(),
      through: read.at(-1)?.sk ?? '',
      lines: read.length,
      muted: active ? muted : [],
    };
    if (!(await claimWindow(key, claim, read.length))) return;
    const listed = active ? read.filter((line) => !muted.includes(line.category)) : [];
    claim.delivery = await mailed(window, listed, recipient, now);
    await recordWindowDelivery(key, claim.delivery);
  }
  const { delivery = { status: 'failed', at: new Date(now).toISOString(), reason: 'interrupted' } } = claim;
  const muted = new Set(claim.muted as NotificationCategory[]);
  await settleLines(
    lines.map((line) => ({
      envelope: envelopeKey(window.user_id, line.envelope_id),
      line: { pk: line.pk, sk: line.sk },
      delivery: {
        ...(muted.has(line.category as NotificationCategory)
          ? { status: 'suppressed', at: delivery.at ?? '', reason: 'preferences' }
          : delivery),
        digest: window.window,
      },
    })),
  );
  await finishWindow(key, claim.lines);
};
