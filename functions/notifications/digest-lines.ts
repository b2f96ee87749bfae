/**
 * What `writeEnvelopes` writes beside an envelope whose e-mail waits for a digest: a line in its window
 * (the digest's source, not the inbox, so an envelope kept out of the inbox digests the same) and the
 * window item, made or joined without a condition (every line's write sets it to the same), which is the
 * window's due-work entry (`notification-digest`, due at its end) and counts its lines. The line is put
 * if absent in the envelope's own transaction, so a redelivered event, whose envelope is there, writes no
 * line twice.
 */
import { keyFrom } from '#shared/data/access-patterns';
import { dueKeys } from '#shared/data/due-keys';
import { uuidv5 } from '#shared/data/ids';
import type { InboxPut, InboxUpsert } from '#shared/data/inbox';
import { notifications } from './definitions';
import { DIGEST } from './digest-kind';

/** What a line shows of its envelope: the mail lists titles and links. */
export interface DigestLine {
  pk: string;
  sk: string;
  envelope_id: string;
  category: string;
  title: string;
  link: string | null;
}

/** A window item as stored (its due keys aside). */
export interface DigestWindow {
  pk: string;
  sk: string;
  id: string;
  org_id: string;
  user_id: string;
  window: string;
  lines: number;
  claim?: DigestClaim;
}

/** A run's claim of a window: when, through which line, how many, and (once known) what its e-mail became. */
export interface DigestClaim {
  at: string;
  through: string;
  lines: number;
  /** Categories whose e-mail the user switched off after the lines were written: suppressed, not listed. */
  muted: string[];
  delivery?: Record<string, string>;
}

/** Lines outlive a window that never ran by a week at most (the table's TTL), then leave no trace. */
const LINE_KEPT_SECONDS = 7 * 86_400;

export const digestWindowKey = (userId: string, orgId: string, window: string) =>
  keyFrom(notifications.keys.digest, { user_id: userId, org_id: orgId, window });

/** The sort-key beginning of one window's lines. */
export const digestLinesPrefix = (orgId: string, window: string) =>
  keyFrom(notifications.keys.digestLine, { user_id: '', org_id: orgId, window, arrival: '' }).sk;

/** A window's id (its due entry's record): one per user, organisation and window end. */
const windowId = (userId: string, orgId: string, window: string) => uuidv5(`${orgId}#${window}`, userId);

/** The line of a digested envelope in its window (`window`: its end, ISO 8601). */
export const digestLinePut = (
  envelope: {
    user_id: string;
    org_id: string;
    id: string;
    arrival: string;
    category: string;
    title: string;
    link: string | null;
  },
  window: string,
): InboxPut => ({
  ...keyFrom(notifications.keys.digestLine, {
    user_id: envelope.user_id,
    org_id: envelope.org_id,
    window,
    arrival: envelope.arrival,
  }),
  type: 'notification-digest-lines',
  user_id: envelope.user_id,
  id: envelope.id,
  envelope_id: envelope.id,
  category: envelope.category,
  title: envelope.title,
  link: envelope.link,
  version: 1,
  expires_at: Date.parse(window) / 1000 + LINE_KEPT_SECONDS,
});

/** The window made, or joined by `lines` more lines: due at its end. */
export const digestWindowUpsert = (
  userId: string,
  orgId: string,
  window: string,
  lines: number,
): InboxUpsert => {
  const id = windowId(userId, orgId, window);
  return {
    ...digestWindowKey(userId, orgId, window),
    set: {
      ...dueKeys(DIGEST.name, id, Date.parse(window)),
      type: 'notification-digests',
      id,
      org_id: orgId,
      user_id: userId,
      window,
    },
    add: { lines },
  };
};
