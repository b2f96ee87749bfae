/**
 * The settings record a new organisation is made with. Apart from the declaration (`settings.ts`), which
 * every function reads, so that its start-up does not load how records are written.
 */
import { SETTINGS_DEFAULTS, settingsIdOf } from '#shared/data/organisation-settings';
import type { StoredResource } from '#shared/data/stored-resource';
import { newRecord } from '#shared/engine/record-writes';
import { settings } from './settings';

export const defaultSettings = (orgId: string, now = new Date()): StoredResource =>
  newRecord(settings, orgId, { attributes: { ...SETTINGS_DEFAULTS } }, now, settingsIdOf(orgId));
