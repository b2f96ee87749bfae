import { defineArea } from '#shared/engine/area';
import { ruleSettings } from './rule-settings';

/** The caller's own preferences in one organisation (`{org_id}`: 404 where the caller has no grants). */
const preferences = {
  path: '/v3/notification-preferences/{org_id}',
  tag: 'Notifications',
  permission: 'authenticated',
  answers: { status: 200, resource: 'notification-preferences' },
} as const;

export const area = defineArea('notifications', {
  tag: 'Notifications',
  permissions: {
    'notification-rules:view': 'See which events notify whom in the organisation (its notification rules).',
    'notification-rules:manage':
      'Switch notification rules on and off and change whom they notify, how severely, and whether they need acknowledging.',
  },
  resources: [ruleSettings],
  // Preferences and rules (issue 43): the caller's preferences, the organisation's rules.
  // Loaded with the document or a write only: its schemas are zod's.
  answered: {
    'notification-preferences': async () => (await import('./preference-documents')).preferenceAttributes(),
  },
  routes: [
    {
      id: 'getNotificationRules',
      method: 'GET',
      path: '/v3/orgs/{org_id}/notification-rules',
      handler: 'functions/notifications/get-rules.ts',
      permission: 'notification-rules:view',
      answers: { status: 200, resource: 'notification-rules' },
    },
    {
      id: 'updateNotificationRules',
      method: 'PATCH',
      path: '/v3/orgs/{org_id}/notification-rules',
      handler: 'functions/notifications/update-rules.ts',
      permission: 'notification-rules:manage',
      answers: { status: 200, resource: 'notification-rules' },
      // 422: an unknown rule id, relationship or permission.
      errors: [409, 412, 422],
    },
    {
      ...preferences,
      id: 'getNotificationPreferences',
      method: 'GET',
      handler: 'functions/notifications/get-preferences.ts',
      // 403: a service account has no notifications.
      errors: [403],
    },
    {
      ...preferences,
      id: 'updateNotificationPreferences',
      method: 'PATCH',
      handler: 'functions/notifications/update-preferences.ts',
      // 422: the change would mute safety notifications.
      errors: [403, 409, 422],
    },
  ],
});
