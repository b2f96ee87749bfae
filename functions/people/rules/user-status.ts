/**
 * A user's status in their organisation: active → suspended → active, and either → deactivated, which is
 * final unless an administrator reactivates the user (→ active). The moves are declared on the type
 * (`users.ts`); each is an event of its own (`user.suspended`, `user.deactivated`, `user.reactivated`).
 * Pure.
 */
export const USER_STATUSES = ['active', 'suspended', 'deactivated'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Whether a user of this status may sign in and use their sessions. */
export const mayUseSessions = (status: UserStatus): boolean => status === 'active';

/** Why the caller (a user's id, or null for a machine) may not change this user's status: not their own. */
export const ownStatusRefusal = (userId: string, callerUserId: string | null): string | null =>
  callerUserId === userId ? 'You cannot change your own status.' : null;
