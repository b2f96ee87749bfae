/**
 * A digest's one e-mail: every line's title and link, the first 50 in full and then "and N more" with a
 * link to the inbox (a mail of 500 titles is read by nobody and clipped by most clients). A digest may
 * mix categories, and one-click unsubscribe (RFC 8058) stops exactly one: the text carries one link per
 * category it lists, and `List-Unsubscribe` (with `List-Unsubscribe-Post`) is set only when the digest is
 * of one category, so a mail client's one button never stops more, or other, mail than the reader sees.
 * Safety and acknowledgement-required envelopes are never digested (`channelsFor` sends them at once).
 */
import { config } from '#shared/config';
import type { Email } from '#shared/data/email';
import type { NotificationCategory } from '#shared/domain/notification-rules';
import { routePath } from '#shared/http/links';
import type { DigestLine } from './digest-lines';
import { unsubscribeUrl } from './email-delivery';

/** Lines a digest lists in full; the rest are counted, with a link to the inbox. */
export const DIGEST_LINES_IN_FULL = 50;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The digest mail of `lines` (in arrival order) for one user of one organisation, to `to`. */
export const digestMail = async (
  userId: string,
  orgId: string,
  lines: readonly DigestLine[],
  to: string,
): Promise<Email> => {
  const inbox = `${config.TOKEN_ISSUER}${routePath('listNotifications')}?filter[organisation]=${orgId}`;
  const categories = [...new Set(lines.map((line) => line.category as NotificationCategory))];
  const unsubscribes = await Promise.all(
    categories.map(async (category) => ({
      category,
      url: await unsubscribeUrl(userId, orgId, category),
    })),
  );
  const listed = lines.slice(0, DIGEST_LINES_IN_FULL);
  const more = lines.length - listed.length;
  const [only] = unsubscribes.length === 1 ? unsubscribes : [];
  return {
    to,
    subject: `Your digest: ${plural(lines.length, 'notification')}`,
    text: [
      `${plural(lines.length, 'notification')} since your last digest:`,
      '',
      ...listed.flatMap((line) => [
        `- ${line.title}`,
        ...(line.link ? [`  ${config.TOKEN_ISSUER}${line.link}`] : []),
      ]),
      '',
      more > 0 ? `And ${more} more: ${inbox}` : `Your inbox: ${inbox}`,
      '',
      ...unsubscribes.map(({ category, url }) => `Stop e-mails about ${category}: ${url}`),
    ].join('\n'),
    ...(only && {
      headers: {
        'List-Unsubscribe': `<${only.url}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    }),
  };
};
