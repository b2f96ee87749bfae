import { defineArea } from '#shared/engine/area';
import { preferenceAttributes } from './preference-documents';

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
    'notification-acknowledgements:view': 'See who has and has not acknowledged a notice.',
    'notices:send': 'Send notices to the organisation’s users and teams.',
  },
  resources: [],
  // Preferences and rules (issue 43): the caller's preferences, the organisation's rules.
  answered: { 'notification-preferences': preferenceAttributes },
  routes: [
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
