/** A body for each of the notifications area's write routes (null: it takes none); see shared/engine/examples.ts. */
import type { RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  updateNotificationPreferences: (i) => ({
    data: {
      type: 'notification-preferences',
      id: i.org_id,
      attributes: { channels: { people: { email: false } }, email_digest: { reviews: 'daily' } },
    },
  }),
};
