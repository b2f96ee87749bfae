/** A body for each of the notifications area's write routes; see shared/engine/examples.ts. */
import type { RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  updateNotification: (i) => ({
    data: { type: 'notifications', id: i.notification_id, attributes: { state: 'read', saved: true } },
  }),
  markNotifications: () => ({
    data: { type: 'notification-marks', attributes: { action: 'read', through: 'now' } },
  }),
};
