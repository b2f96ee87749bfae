/**
 * Which digest a recipient's e-mail waits for, as the consumer decides it: their preferences' `hourly` or
 * `daily` (at their `daily_digest_at`, on the organisation's clock: its settings' `timezone`, read once a
 * page of recipients and only when one of them digests daily).
 */
import { settingsKey, settingsOf } from '#shared/data/organisation-settings';
import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import type { DigestPlan } from './rules/digest-windows';
import type { Channels, Preferences, PreferencesChange } from './rules/preferences';

/** The organisation's time zone, if any of these stored preferences digests daily (else no read). */
export const digestZone = async (
  orgId: string,
  stored: readonly PreferencesChange[],
): Promise<string | undefined> =>
  stored.some((preferences) => Object.values(preferences.email_digest ?? {}).includes('daily'))
    ? settingsOf(await getItem<StoredResource>(settingsKey(orgId))).timezone
    : undefined;

/** The digest an e-mail waits for, or none (sent at once, or not at all). */
export const digestPlan = (
  email: Channels['email'],
  preferences: Preferences,
  zone = 'UTC',
): DigestPlan | undefined =>
  email === 'hourly'
    ? { cadence: 'hourly' }
    : email === 'daily'
      ? { cadence: 'daily', at: preferences.daily_digest_at, zone }
      : undefined;
