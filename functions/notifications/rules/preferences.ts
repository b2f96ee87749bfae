/**
 * A user's notification preferences in one organisation, as values (pure): the categories and channels
 * they govern, what an absent record means (the defaults), a change applied to them, why a change may not
 * be made (safety is never muted), and what one notification is sent on (`channelsFor`, the consumer's).
 */

import { NOTIFICATION_CATEGORIES, type NotificationCategory } from '#shared/domain/notification-rules';

/** A category nobody may mute, on any channel or by delaying it to a digest. */
export const UNMUTED: NotificationCategory = 'safety';

/** When a category's e-mails go: each at once (`off`), or gathered into an hourly or daily digest. */
export const DIGESTS = ['off', 'hourly', 'daily'] as const;
export type Digest = (typeof DIGESTS)[number];

/** A time of day, `HH:MM` on the 24-hour clock. */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

export interface Preferences {
  channels: Record<NotificationCategory, { inbox: boolean; email: boolean }>;
  email_digest: Record<NotificationCategory, Digest>;
  /** When the daily digest goes, in the organisation's time zone (its settings' `timezone`). */
  daily_digest_at: string;
}

/** A change: any categories' channels (either or both), digests, and the daily time. */
export interface PreferencesChange {
  channels?: Partial<Record<NotificationCategory, { inbox?: boolean; email?: boolean }>>;
  email_digest?: Partial<Record<NotificationCategory, Digest>>;
  daily_digest_at?: string;
}

const everyCategory = <T>(value: () => T) =>
  Object.fromEntries(NOTIFICATION_CATEGORIES.map((category) => [category, value()])) as Record<
    NotificationCategory,
    T
  >;

/** What a user who has set nothing gets: every category in the inbox and by e-mail at once; 08:00. */
export const defaultPreferences = (): Preferences => ({
  channels: everyCategory(() => ({ inbox: true, email: true })),
  email_digest: everyCategory(() => 'off' as const),
  daily_digest_at: '08:00',
});

/**
 * The preferences a stored record gives, the defaults filling what it lacks (a category added after it
 * was written starts at its default); null (no record) is the defaults.
 */
export const preferencesOf = (stored: PreferencesChange | null): Preferences =>
  applied(defaultPreferences(), stored ?? {});

/** The preferences with a change applied, member by member. */
export const applied = (preferences: Preferences, change: PreferencesChange): Preferences => ({
  channels: Object.fromEntries(
    NOTIFICATION_CATEGORIES.map((category) => [
      category,
      { ...preferences.channels[category], ...change.channels?.[category] },
    ]),
  ) as Preferences['channels'],
  email_digest: { ...preferences.email_digest, ...change.email_digest },
  daily_digest_at: change.daily_digest_at ?? preferences.daily_digest_at,
});

/** A change refused, with where in the request it is (a JSON Pointer below the attributes). */
export interface Refusal {
  path: readonly string[];
  reason: string;
}

/**
 * Why a change may not be made: it would switch a safety channel off, or delay safety e-mails to a
 * digest. Safety notices reach everyone at once, whatever they prefer (acknowledgement-required notices
 * too: `channelsFor` ignores preferences for them, so there is nothing to switch off).
 */
export const refusals = (change: PreferencesChange): Refusal[] => [
  ...(['inbox', 'email'] as const)
    .filter((channel) => change.channels?.[UNMUTED]?.[channel] === false)
    .map((channel) => ({
      path: ['channels', UNMUTED, channel],
      reason: `${UNMUTED} notifications cannot be switched off: they reach everyone on every channel.`,
    })),
  ...(change.email_digest?.[UNMUTED] !== undefined && change.email_digest[UNMUTED] !== 'off'
    ? [
        {
          path: ['email_digest', UNMUTED],
          reason: `${UNMUTED} e-mails are sent at once, never gathered into a digest.`,
        },
      ]
    : []),
];

/** Where one notification goes: into the inbox or not; by e-mail now, in a digest, or not at all. */
export interface Channels {
  inbox: boolean;
  email: 'now' | 'hourly' | 'daily' | false;
}

/**
 * The channels a notification of a category goes on for a user with these preferences. Safety and
 * acknowledgement-required notifications ignore preferences: inbox and e-mail, at once.
 */
export const channelsFor = (
  preferences: Preferences,
  category: NotificationCategory,
  requiresAck: boolean,
): Channels => {
  if (requiresAck || category === UNMUTED) return { inbox: true, email: 'now' };
  const { inbox, email } = preferences.channels[category];
  const digest = preferences.email_digest[category];
  return { inbox, email: email ? (digest === 'off' ? 'now' : digest) : false };
};
