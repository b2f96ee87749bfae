/**
 * A user's status in their organisation: active → suspended → active, and either → deactivated, which is
 * final unless an administrator reactivates the user (→ active). Each change is an event of its own
 * (`user.suspended`, `user.deactivated`, `user.reactivated`). Pure.
 */
export const USER_STATUSES = ['active', 'suspended', 'deactivated'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

const ACTIONS: Readonly<Record<string, string>> = {
  'active→suspended': 'suspended',
  'active→deactivated': 'deactivated',
  'suspended→active': 'reactivated',
  'suspended→deactivated': 'deactivated',
  'deactivated→active': 'reactivated',
};

/** The event action a change of status is, or null when the change is not allowed (or no change). */
export const statusAction = (from: UserStatus, to: UserStatus): string | null =>
  ACTIONS[`${from}→${to}`] ?? null;

/** Whether a user of this status may sign in and use their sessions. */
export const mayUseSessions = (status: UserStatus): boolean => status === 'active';
