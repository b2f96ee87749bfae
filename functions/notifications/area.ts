import { defineArea } from '#shared/engine/area';
import { eventConsumer } from '#shared/engine/event-consumers';
import { ACK_ESCALATION, acknowledgements } from './acknowledgements';
import { countsAttributes } from './counts-attributes';
import { notifications } from './definitions';
import { DIGEST } from './digest-kind';
import { notices } from './notices';
import { ruleSettings } from './rule-settings';
import { unsubscribeAttributes } from './unsubscribe-attributes';

/** The caller's own preferences in one organisation (`{org_id}`: 404 where the caller has no grants). */
const preferences = {
  path: '/v3/notification-preferences/{org_id}',
  tag: 'Notifications',
  permission: 'authenticated',
  answers: { status: 200, resource: 'notification-preferences' },
} as const;

/**
 * Notifications (issue 43): each user's inbox of envelopes and preferences, the organisation's rules
 * (which events notify whom), and notices, the sender's side of acknowledgement-required messages.
 */
export const area = defineArea('notifications', {
  tag: 'Notifications',
  permissions: {
    'notices:send': 'Send notices to people of the organisation (a stop-work notice) and read those sent.',
    'notification-rules:view': 'See which events notify whom in the organisation (its notification rules).',
    'notification-rules:manage':
      'Switch notification rules on and off and change whom they notify, how severely, and whether they need acknowledging.',
    'notification-acknowledgements:view':
      'See who has acknowledged an acknowledgement-required notification (a stop-work notice) and who has not.',
  },
  resources: [notifications, notices, ruleSettings, acknowledgements],
  // An acknowledgement's escalation; a digest window's one e-mail, at the window's end.
  dueWork: [ACK_ESCALATION, DIGEST],
  // Events become envelopes in the inboxes their rules name, after every other stage has kept them.
  consumers: [
    eventConsumer(
      'notifications',
      { module: 'functions/notifications/deliver.ts', handle: 'deliverNotifications' },
      'deliver',
    ),
  ],
  // A notice is told to whom it names (`noticeRecipients`), in its own category, severity and
  // acknowledgement; an organisation may add recipients to it here.
  notificationRules: [
    {
      id: 'notice-sent',
      event: 'notice.created',
      category: 'safety',
      severity: 'warning',
      recipients: [],
      addressed: true,
      title: '{attributes.title}',
      body: '{attributes.body}',
      generic: { title: 'A notice was sent', body: 'A notice was sent to people of the organisation.' },
    },
  ],
  answered: {
    'notification-counts': countsAttributes,
    'notification-unsubscribes': unsubscribeAttributes,
    // Loaded with the document or a write only: its schemas are zod's.
    'notification-preferences': async () => (await import('./preference-documents')).preferenceAttributes(),
  },
  // The caller's own inbox: any signed-in user, about themselves; a service account is 403 (no inbox).
  routes: [
    {
      id: 'listNotifications',
      method: 'GET',
      path: '/v3/notifications',
      handler: 'functions/notifications/list-notifications.ts',
      // Newest first, by cursor only, with no total (the counts route counts): its own query list.
      answers: { status: 200, collection: 'notifications' },
      permission: 'authenticated',
      access: { table: 'read', cursors: true },
      query: [
        'page[cursor]',
        'page[limit]',
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
      // 422: acknowledging an envelope that asks for none, or `acknowledged: false`.
      errors: [422],
    },
    {
      id: 'listNotificationAcknowledgements',
      method: 'GET',
      path: '/v3/orgs/{org_id}/notification-acknowledgements',
      handler: 'functions/notifications/list-acknowledgements.ts',
      answers: { status: 200, collection: 'notification-acknowledgements' },
      permission: 'notification-acknowledgements:view',
      // One event's or notice's recipients, one of the two filters required: its own query list.
      query: ['filter[event]', 'filter[notice]', 'page[limit]', 'page[offset]', 'sort'],
    },
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
      // RFC 8058 one-click unsubscribe: the e-mail's sealed token is the credential, no session.
      id: 'unsubscribeNotifications',
      method: 'POST',
      path: '/v3/notification-unsubscribe/{token}',
      handler: 'functions/notifications/unsubscribe.ts',
      tag: 'Notifications',
      // A browser posting the link's page's form (asking for HTML) is answered a page saying what was done.
      answers: { status: 204, page: true },
      auth: [],
      permission: null,
      bodyType: 'form',
      access: { table: 'write', cursors: true },
      // 404: a token this deployment did not seal.
      errors: [404, 409],
    },
    {
      // What the link stops, changing nothing: mail scanners follow GET links.
      id: 'getNotificationUnsubscribe',
      method: 'GET',
      path: '/v3/notification-unsubscribe/{token}',
      handler: 'functions/notifications/unsubscribe-confirmation.ts',
      tag: 'Notifications',
      // A person clicking the link in a mail (asking for HTML) is answered a page with the button that posts.
      answers: { status: 200, resource: 'notification-unsubscribes', page: true },
      auth: [],
      permission: null,
      access: { table: 'read', cursors: true },
      query: [],
      errors: [404],
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
