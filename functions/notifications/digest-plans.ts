/**
 * Which digest a recipient's e-mail waits for, as the consumer decides it: their preferences' `hourly` or
 * `daily` (at their `daily_digest_at`, on the organisation's clock: its settings' `timezone`, read once an
 * event and only when one of its recipients digests daily).
 */
import { settingsKey, settingsOf } from '#shared/data/organisation-settings';
import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import type { DigestPlan } from './rules/digest-windows';
import type { Channels, Preferences, PreferencesChange } from './rules/preferences';

/**
 * The organisation's time zone, read at most once for whoever asks (the consumer, once an event), and
 * only when some stored preferences digest daily (`digestZone`).
 */
export const organisationZone = (orgId: string) => {
  let zone: Promise<string> | undefined;
  return () => {
    zone ??= getItem<StoredResource>(settingsKey(orgId)).then((item) => settingsOf(item).timezone);
    return zone;
  };
};

/** The organisation's time zone, if any of these stored preferences digests daily (else no read). */
export const digestZone = async (
  zoneOf: () => Promise<string>,
  stored: readonly PreferencesChange[],
): Promise<string | undefined> =>
  stored.some((preferences) => Object.values(preferences.email_digest ?? {}).includes('daily'))
    ? zoneOf()
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
