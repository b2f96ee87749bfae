/**
 * An organisation's settings as values: their defaults, where the one record of them is kept, and the
 * values a record (or none) gives. Here, below the organisations area's declaration
 * (`resources/organisations/settings.ts`), because the collection engine and the authorisation middleware
 * read the default page size and import no area.
 */

import { PAGE_SIZE_DEFAULT } from './collection-query';
import { uuidv5 } from './ids';
import { type ItemKey, resourceKey, type StoredResource } from './stored-resource';

/** The namespace of settings' ids (RFC 9562 UUID v5): any fixed UUID of this service's own. */
const SETTINGS_IDS = '5b0e3f3c-6a4d-4f0e-9a53-7f3f2f6d8c11';
export const settingsIdOf = (orgId: string) => uuidv5(orgId, SETTINGS_IDS);

/** Where an organisation's settings are kept: found by the organisation alone. */
export const settingsKey = (orgId: string): ItemKey => resourceKey(orgId, 'settings', settingsIdOf(orgId));

/** What a new organisation starts with. */
export const SETTINGS_DEFAULTS = {
  timezone: 'Europe/London',
  locale: 'en-GB',
  week_start: 'monday',
  /** How long a user's session lasts from sign-in (SSO login, an accepted invitation). */
  session_lifetime_minutes: 480,
  /** The page size of the organisation's collections when a request names none. */
  default_page_size: PAGE_SIZE_DEFAULT,
  /** Users may sign in only through one of the organisation's SSO providers. */
  sso_enforced: false,
} as const;

export type Settings = {
  -readonly [K in keyof typeof SETTINGS_DEFAULTS]: (typeof SETTINGS_DEFAULTS)[K] extends string
    ? string
    : (typeof SETTINGS_DEFAULTS)[K];
};

/** A settings record's values, defaults filling any it lacks. */
export const settingsOf = (record: StoredResource | null): Settings => ({
  ...SETTINGS_DEFAULTS,
  ...(record?.attributes as Partial<Settings> | undefined),
});
