/**
 * One-click unsubscribe tokens (RFC 8058): a token names a user, an organisation and a category, sealed
 * with an HMAC-SHA256 under a key derived from the deployment's cursor key (its own label, so a cursor's
 * seal is never an unsubscribe token's). Nothing is stored: a token is checked by computing its seal
 * again, so there is no table of tokens to leak, and a token changed in any character is no token. It does
 * not expire: an e-mail's unsubscribe link works as long as the e-mail is kept, as mail clients expect.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { cursorKey } from '#shared/data/cursor-key';
import { NOTIFICATION_CATEGORIES, type NotificationCategory } from '#shared/domain/notification-rules';

const LABEL = 'notification-unsubscribe';

const sealOf = async (userId: string, orgId: string, category: string): Promise<Buffer> => {
  const key = createHmac('sha256', await cursorKey())
    .update(LABEL)
    .digest();
  return createHmac('sha256', key).update(`${userId}\n${orgId}\n${category}`).digest();
};

/** The token for one user's e-mails of one category in one organisation: `<user>.<org>.<category>.<seal>`. */
export const unsubscribeToken = async (
  userId: string,
  orgId: string,
  category: NotificationCategory,
): Promise<string> =>
  `${userId}.${orgId}.${category}.${(await sealOf(userId, orgId, category)).toString('base64url')}`;

/** What a token names, or null for anything that is not a token this deployment sealed. */
export const openUnsubscribeToken = async (
  token: string,
): Promise<{ userId: string; orgId: string; category: NotificationCategory } | null> => {
  const [userId, orgId, category, seal, ...rest] = token.split('.');
  if (!userId || !orgId || !category || !seal || rest.length > 0) return null;
  if (!(NOTIFICATION_CATEGORIES as readonly string[]).includes(category)) return null;
  // Compared as written, not decoded: base64url decoding ignores a last character's spare bits and any
  // character outside the alphabet, so several spellings would decode to the one seal.
  const given = Buffer.from(seal);
  const expected = Buffer.from((await sealOf(userId, orgId, category)).toString('base64url'));
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? { userId, orgId, category: category as NotificationCategory }
    : null;
};
