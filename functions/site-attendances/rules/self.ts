/**
 * Signing oneself in and out (`site-attendances:self`, pure): the person is the caller. A worker signs in
 * from their own phone through the same gate as at the kiosk; they may not sign anyone else in or out.
 */

/** Who is calling, as far as this rule needs: a user, or a machine that is never anyone's person. */
export interface Caller {
  id: string;
  kind: string;
}

export const SELF_PERMISSION = 'site-attendances:self';

/** Why the caller is not the person it acts for (a user naming someone else, a machine), or null. */
export const notThePerson = (person: unknown, caller: Caller, verb: 'in' | 'out'): string | null =>
  caller.kind === 'user' && person === caller.id
    ? null
    : `With ${SELF_PERMISSION}, a user signs only themselves ${verb}: signing in or out anyone else needs site-attendances:manage.`;
