/**
 * Envelopes by e-mail at once: one SES call per envelope, to the recipient's address, at most once. The
 * envelope's own item is the claim: an envelope is mailed only by whoever first marks it claimed while its
 * e-mail delivery is still `pending` (one conditional UpdateItem), so a redelivered event, or two
 * consumers at once, never send it twice. Then its delivery becomes `sent` (the time and SES's message
 * id) or `failed` (the reason). A crash between the claim and the send leaves it pending and claimed:
 * never sent twice, and not sent (a failure, not a duplicate). A failed mail is not retried: the SES
 * client's own retries (standard mode) have absorbed what was transient, and what is left is mostly
 * permanent (a rejected address, a paused account); docs/notifications.md, E-mail.
 *
 * Each mail names its category's one-click unsubscribe (RFC 8058: `List-Unsubscribe` and
 * `List-Unsubscribe-Post`), except safety and acknowledgement-required ones, which nobody may mute.
 */
import { config } from '#shared/config';
import { sendEmail } from '#shared/data/email';
import { claimEmail, settleEmail } from '#shared/data/inbox';
import type { NotificationCategory } from '#shared/domain/notification-rules';
import { routePath } from '#shared/http/links';
import { type Envelope, envelopeId } from './envelopes';
import { envelopeKey } from './inbox-state';
import { UNMUTED } from './rules/preferences';
import { unsubscribeToken } from './unsubscribe-tokens';

/**
 * Mails in flight at once, not a rate: a large fan-out mails in groups, not all at once; a burst past
 * SES's sending rate (14 a second by default) is throttled and retried by the SES client.
 */
const MAILS_AT_ONCE = 10;

/** The one-click unsubscribe link of a user's mail of one category in one organisation, on the API's address. */
export const unsubscribeUrl = async (userId: string, orgId: string, category: NotificationCategory) =>
  `${config.TOKEN_ISSUER}${routePath('getNotificationUnsubscribe', { token: await unsubscribeToken(userId, orgId, category) })}`;

/** Whether mail of this envelope may be unsubscribed from: not safety, not one to acknowledge. */
export const mutable = (envelope: Pick<Envelope, 'category' | 'requires_ack'>) =>
  envelope.category !== UNMUTED && !envelope.requires_ack;

const keyOf = (envelope: Envelope) =>
  envelopeKey(envelope.recipient, envelopeId(envelope.event.id, envelope.recipient));

/** The mail of one envelope: its title, its body, where to read it, and how to stop this category's mail. */
export const mailOf = async (envelope: Envelope, to: string) => {
  const unsubscribe = mutable(envelope)
    ? await unsubscribeUrl(envelope.recipient, envelope.org_id, envelope.category)
    : null;
  return {
    to,
    subject: envelope.title,
    text: [
      envelope.body,
      ...(envelope.link ? ['', `${config.TOKEN_ISSUER}${envelope.link}`] : []),
      ...(unsubscribe ? ['', `Stop e-mails about ${envelope.category}: ${unsubscribe}`] : []),
    ].join('\n'),
    ...(unsubscribe && {
      headers: {
        'List-Unsubscribe': `<${unsubscribe}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    }),
  };
};

/**
 * Mails each envelope whose e-mail is still pending and unclaimed, once, to its recipient's address as
 * recipient resolution read it (`addresses`, by user id: no second read of their records). The caller
 * hands over only what `writeEnvelopes` wrote or found unmailed; the claim still decides, for two
 * consumers at once.
 */
export const mailNow = async (
  envelopes: readonly Envelope[],
  addresses: ReadonlyMap<string, string | null>,
  now = Date.now,
): Promise<void> => {
  for (let i = 0; i < envelopes.length; i += MAILS_AT_ONCE) {
    await Promise.all(
      envelopes.slice(i, i + MAILS_AT_ONCE).map(async (envelope) => {
        const at = new Date(now()).toISOString();
        if (!(await claimEmail(keyOf(envelope), at))) return;
        const to = addresses.get(envelope.recipient);
        if (!to)
          return settleEmail(keyOf(envelope), {
            status: 'failed',
            at,
            reason: 'the user has no e-mail address',
          });
        const delivery = await sendEmail(await mailOf(envelope, to)).then(
          (messageId) => ({ status: 'sent', at: new Date(now()).toISOString(), message_id: messageId }),
          (error: unknown) => ({
            status: 'failed',
            at: new Date(now()).toISOString(),
            reason: error instanceof Error ? error.name : 'the mail could not be sent',
          }),
        );
        await settleEmail(keyOf(envelope), delivery);
      }),
    );
  }
};
