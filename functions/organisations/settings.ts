/**
 * An organisation's settings: one record per organisation, found by the organisation alone (its id is
 * a UUID v5 of the organisation's, its own, so its events and audit history are not the organisation's),
 * written with their defaults when the organisation is made, changed with PATCH
 * /v3/orgs/{org_id}/settings (naming the settings' id, as JSON:API has it). Typed:
 * an unknown key is 400; each change is a `settings.updated` event, and so an audit entry with the old
 * and the new value of what changed. The spec fixes its retention periods (device backups: 30 days), so
 * none is a setting here.
 */
import { settingsKey } from '#shared/data/organisation-settings';
import { defineResource } from '#shared/engine/resource-definition';
import { fillPath } from '#shared/http/path-template';
import { PAGE_SIZE_MAX } from '#shared/jsonapi/collection-query';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

export { SETTINGS_DEFAULTS, type Settings, settingsOf } from '#shared/data/organisation-settings';

const SETTINGS_PATH = '/v3/orgs/{org_id}/settings';
export const WEEK_DAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;

export const settings = defineResource({
  type: 'settings',
  tag: 'Settings',
  names: { one: 'Settings', many: 'Settings' },
  itemPath: SETTINGS_PATH,
  permission: 'settings',
  endpoints: { get: true, update: true },
  writes: async () => {
    const { z, integer, languageTag, timeZone } = await loadSchemaBuilders();
    return {
      attributes: {
        timezone: timeZone(),
        locale: languageTag(),
        week_start: z.enum(WEEK_DAYS),
        session_lifetime_minutes: integer(15, 24 * 60),
        default_page_size: integer(1, PAGE_SIZE_MAX),
        sso_enforced: z.boolean(),
      },
    };
  },
  relationships: { organisation: false },
  // One per organisation: its id is derived from the organisation's, whatever id it is read by.
  keys: { record: { index: 'table', pk: 'ORG#{org_id}#settings', sk: '{settings_id}' } },
  keyOf: (orgId) => settingsKey(orgId),
  selfPath: (record) => fillPath(SETTINGS_PATH, { org_id: record.org_id }),
});
