/** A body for each of the notifications area's write routes (null: it takes none); see shared/engine/examples.ts. */
import type { RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
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
