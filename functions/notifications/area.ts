import { defineArea } from '#shared/engine/area';
import { notices } from './notices';

/** Notifications (issue 43): notices, the sender's side of acknowledgement-required messages. */
export const area = defineArea('notifications', {
  tag: 'Notifications',
  permissions: {
    'notices:send': 'Send notices to people of the organisation (a stop-work notice) and read those sent.',
  },
  resources: [notices],
  routes: [],
});
