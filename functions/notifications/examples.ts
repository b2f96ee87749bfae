/** A body for each of the notifications area's write routes; see shared/engine/examples.ts. */
import type { RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createNotice: (i) => ({
    data: {
      type: 'notices',
      attributes: {
        title: 'Stop work: crane exclusion zone',
        body: 'All lifting on the north bay stops until the crane is inspected.',
        category: 'safety',
        severity: 'critical',
        recipients: { users: [i.person], teams: [i.team_id] },
      },
    },
  }),
  updateNotification: (i) => ({
    data: { type: 'notifications', id: i.notification_id, attributes: { state: 'read', saved: true } },
  }),
  markNotifications: () => ({
    data: { type: 'notification-marks', attributes: { action: 'read', through: 'now' } },
  }),
  updateNotificationRules: (i) => ({
    data: {
      type: 'notification-rules',
      id: i.notification_rules_id,
      attributes: {
        overrides: {
          'invitation-accepted': { severity: 'warning' },
          'qualification-award-expiring': { recipients: [{ relationship: 'person' }] },
        },
      },
    },
  }),
  updateNotificationPreferences: (i) => ({
    data: {
      type: 'notification-preferences',
      id: i.org_id,
      attributes: { channels: { people: { email: false } }, email_digest: { reviews: 'daily' } },
    },
  }),
};
