import { defineArea } from '#shared/engine/area';
import { countsAttributes } from './counts-attributes';
import { notifications } from './definitions';
import { notices } from './notices';

/**
 * Notifications (issue 43): each user's inbox of envelopes, and notices, the sender's side of
 * acknowledgement-required messages.
 */
export const area = defineArea('notifications', {
  tag: 'Notifications',
  permissions: {
    'notices:send': 'Send notices to people of the organisation (a stop-work notice) and read those sent.',
  },
  resources: [notifications, notices],
  answered: { 'notification-counts': countsAttributes },
  // The caller's own inbox: any signed-in user, about themselves; a service account is 403 (no inbox).
  routes: [
    {
      id: 'listNotifications',
      method: 'GET',
      path: '/v3/notifications',
      handler: 'functions/notifications/list-notifications.ts',
      // Newest first, by cursor or offset, with no total (the counts route counts): its own query list.
      answers: { status: 200, collection: 'notifications' },
      permission: 'authenticated',
      access: { table: 'read', cursors: true },
      query: [
        'page[cursor]',
        'page[limit]',
        'page[offset]',
        'sort',
        'filter[organisation]',
        'filter[category]',
        'filter[severity]',
        'filter[state]',
      ],
    },
    {
      id: 'getNotificationCounts',
      method: 'GET',
      path: '/v3/notifications/counts',
      handler: 'functions/notifications/notification-counts.ts',
      answers: { status: 200, resource: 'notification-counts' },
      permission: 'authenticated',
      query: [],
    },
    {
      id: 'markNotifications',
      method: 'POST',
      path: '/v3/notifications/mark',
      handler: 'functions/notifications/mark-notifications.ts',
      answers: { status: 200, resource: 'notification-counts' },
      permission: 'authenticated',
    },
    {
      id: 'getNotification',
      method: 'GET',
      path: '/v3/notifications/{notification_id}',
      handler: 'functions/notifications/get-notification.ts',
      answers: { status: 200, resource: 'notifications' },
      permission: 'authenticated',
      query: [],
    },
    {
      id: 'updateNotification',
      method: 'PATCH',
      path: '/v3/notifications/{notification_id}',
      handler: 'functions/notifications/update-notification.ts',
      answers: { status: 200, resource: 'notifications' },
      permission: 'authenticated',
    },
  ],
});
