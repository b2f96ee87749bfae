/**
 * What a change of a user's status writes beside the record (`users.ts` declares the moves): their
 * principal enabled or not and, on leaving `active`, every session started until now ended, so the next
 * call with one is refused and a later reactivation does not revive them. Apart from the declaration so
 * a read's bundle carries none of it: the declaration imports this module when a move is made.
 */
import { principalStatusWrite } from '#shared/data/principals';
import type { StoredResource } from '#shared/data/stored-resource';
import type { MoveWrites } from '#shared/engine/lifecycle';
import { mayUseSessions, type UserStatus } from './rules/user-status';

export const principalFollows = (moved: StoredResource, { now }: { now: Date }): MoveWrites => {
  const enabled = mayUseSessions(moved.attributes.status as UserStatus);
  return {
    ops: [{ item: principalStatusWrite(moved.id, enabled, enabled ? undefined : now.toISOString()) }],
  };
};
