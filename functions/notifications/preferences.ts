/**
 * Where a user's notification preferences in one organisation are kept, and their reads and writes: one
 * item beside the user's inbox (`INBOX#<user>` / `PREFS#<org>`), absent until first changed (absent = the
 * defaults, `rules/preferences.ts`). Each write is conditional on the version it read, so two changes made
 * at once never lose one (the later is 409, read again).
 */

import { declareAccessPatterns, keyFrom } from '#shared/data/access-patterns';
import { tableName } from '#shared/data/clients';
import { getItem } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import { commit, WriteRefused } from '#shared/data/transaction';
import type { NotificationCategory } from '#shared/domain/notification-rules';
import { ConflictError } from '#shared/jsonapi/errors';
import {
  applied,
  type Preferences,
  type PreferencesChange,
  preferencesOf,
  UNMUTED,
} from './rules/preferences';

const keys = /* @__PURE__ */ declareAccessPatterns('notifications/preferences', {
  preferences: {
    index: 'table',
    pk: 'INBOX#{user_id}',
    sk: 'PREFS#{org_id}',
    about: "a user's notification preferences in one organisation (absent: the defaults)",
  },
});

export const preferencesKey = (userId: string, orgId: string) =>
  keyFrom(keys.preferences, { user_id: userId, org_id: orgId });

interface StoredPreferences extends PreferencesChange {
  version: number;
  updated_at: string;
}

/** A user's preferences in an organisation, and the version they were read at (0: none written yet). */
export const readPreferences = async (
  userId: string,
  orgId: string,
): Promise<{ preferences: Preferences; version: number }> => {
  const stored = await getItem<StoredPreferences>(preferencesKey(userId, orgId), true);
  return { preferences: preferencesOf(stored), version: stored?.version ?? 0 };
};

/**
 * Writes the preferences with a change applied, if the item is still at the version read: the whole
 * preferences are written (defaults included), so what a user saw when they changed them stays theirs.
 */
export const changePreferences = async (
  userId: string,
  orgId: string,
  change: PreferencesChange,
): Promise<Preferences> => {
  const { preferences, version } = await readPreferences(userId, orgId);
  const changed = applied(preferences, change);
  const item = {
    ...preferencesKey(userId, orgId),
    user_id: userId,
    org_id: orgId,
    ...changed,
    version: version + 1,
    updated_at: new Date().toISOString(),
  };
  const condition =
    version === 0
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : {
          ConditionExpression: 'version = :read',
          ExpressionAttributeValues: { ':read': version },
        };
  await commit(scopeOf([orgId]), [
    { item: { Put: { TableName: tableName, Item: item, ...condition } } },
  ]).catch((error: unknown) => {
    if (error instanceof WriteRefused && error.code === 'stale')
      throw new ConflictError('The preferences changed while this request was applied; read them again.');
    throw error;
  });
  return changed;
};

/**
 * One-click unsubscribe (RFC 8058) from a category's e-mails: e-mail off for that category, nothing else.
 * Safety e-mails cannot be unsubscribed from: false, nothing written.
 */
export const unsubscribe = async (
  userId: string,
  orgId: string,
  category: NotificationCategory,
): Promise<boolean> => {
  if (category === UNMUTED) return false;
  await changePreferences(userId, orgId, { channels: { [category]: { email: false } } });
  return true;
};
