/**
 * Notification preferences as a resource: its id is the organisation's (a caller has one set per
 * organisation, at its own path), so the path names it.
 */
import { routePath } from '#shared/http/links';
import type { Preferences } from './rules/preferences';

export const PREFERENCES_TYPE = 'notification-preferences';

export const preferencesResource = (orgId: string, preferences: Preferences, baseUrl: string) => ({
  type: PREFERENCES_TYPE,
  id: orgId,
  attributes: { ...preferences },
  relationships: { organisation: { data: { type: 'organisations', id: orgId } } },
  meta: {},
  links: { self: `${baseUrl}${routePath('getNotificationPreferences', { org_id: orgId })}` },
});
