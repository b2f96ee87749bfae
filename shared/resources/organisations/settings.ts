/**
 * An organisation's settings: one record per organisation, found by the organisation alone (its id is
 * a UUID v5 of the organisation's, its own, so its events and audit history are not the organisation's),
 * written with their defaults when the organisation is made, changed with PATCH
 * /v3/orgs/{org_id}/settings (naming the settings' id, as JSON:API has it). Typed:
 * an unknown key is 400; each change is a `settings.updated` event, and so an audit entry with the old
 * and the new value of what changed. The spec fixes its retention periods (device backups: 30 days), so
 * none is a setting here.
 */
import * as z from 'zod';
import { uuidv5 } from '../../data/ids';
import { resourceKey, type StoredResource } from '../../data/stored-resource';
import { fillPath } from '../../http/path-template';
import { integer, languageTag, timeZone } from '../../jsonapi/attribute-types';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../jsonapi/collection-query';
import { newRecord } from '../record-writes';
import { defineResource } from '../resource-definition';

const SETTINGS_PATH = '/v3/orgs/{org_id}/settings';
/** The namespace of settings' ids (RFC 9562 UUID v5): any fixed UUID of this service's own. */
const SETTINGS_IDS = '5b0e3f3c-6a4d-4f0e-9a53-7f3f2f6d8c11';
const settingsIdOf = (orgId: string) => uuidv5(orgId, SETTINGS_IDS);

export const WEEK_DAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;

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

export const settings = defineResource({
  type: 'settings',
  tag: 'Settings',
  names: { one: 'Settings', many: 'Settings' },
  itemPath: SETTINGS_PATH,
  permission: 'settings',
  endpoints: { get: true, update: true },
  writes: () => ({
    attributes: {
      timezone: timeZone(),
      locale: languageTag(),
      week_start: z.enum(WEEK_DAYS),
      session_lifetime_minutes: integer(15, 24 * 60),
      default_page_size: integer(1, PAGE_SIZE_MAX),
      sso_enforced: z.boolean(),
    },
  }),
  relationships: {},
  keyOf: (orgId) => resourceKey(orgId, 'settings', settingsIdOf(orgId)),
  selfPath: (record) => fillPath(SETTINGS_PATH, { org_id: record.org_id }),
});

/** The settings record a new organisation is made with. */
export const defaultSettings = (orgId: string, now = new Date()): StoredResource =>
  newRecord(settings, orgId, { attributes: { ...SETTINGS_DEFAULTS } }, now, settingsIdOf(orgId));

/** A settings record's values, defaults filling any it lacks. */
export const settingsOf = (record: StoredResource | null): Settings => ({
  ...SETTINGS_DEFAULTS,
  ...(record?.attributes as Partial<Settings> | undefined),
});
