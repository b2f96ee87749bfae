/**
 * Signing out: by the person themselves or someone at the gate (`self`, `manual`), or by the schedule at
 * the site's closing time (`auto`), so every attendance ends and produces hours. The attendance leaves the
 * on-site index and its claim and schedule entry go, in one transaction; `site-attendance.signed-out`.
 */
import type { Principal } from '#shared/auth/principal';
import { type DueEntry, removeDueEntryOp } from '#shared/data/due-work';
import { getItem } from '#shared/data/repository';
import { type Scope, scopeOf, systemActor } from '#shared/data/scope';
import type { ItemKey, StoredResource } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import { byPrincipal, changedRecord } from '#shared/engine/record-writes';
import { ConflictError } from '#shared/jsonapi/errors';
import { siteAttendances, siteOf } from './definitions';
import { openAttendanceKey } from './sign-in-writes';

const signedOut = async (
  scope: Scope,
  attendance: StoredResource,
  at: Date,
  how: 'self' | 'manual' | 'auto',
  by: Principal | null,
  /** The due entry it removes: the one the record names, or the one being run (the same, once carried over). */
  entry: ItemKey | undefined = attendance.schedule,
) => {
  const changed = changedRecord(
    siteAttendances,
    attendance,
    {
      attributes: { signed_out_at: at.toISOString(), method_out: how },
      meta: { on_site: false },
      rels: byPrincipal('signed_out_by', by, 'signed_out_by'),
    },
    how === 'auto' ? new Date() : at,
  );
  const { gsi1pk: _pk, gsi1sk: _sk, schedule: _entry, ...next } = changed;
  const person = attendance.rels.person;
  const site = siteOf(attendance) ?? '';
  await commit(scope, [
    { replace: next, as: 'signed-out' },
    ...(typeof person === 'string' ? [{ remove: openAttendanceKey(attendance.org_id, site, person) }] : []),
    ...(entry ? [removeDueEntryOp(entry)] : []),
  ]);
  return next;
};

/** POST …/sign-out: 409 when the attendance has ended already. */
export const signOut = async (
  scope: Scope,
  attendance: StoredResource,
  principal: Principal,
  now = new Date(),
) => {
  if (attendance.attributes.signed_out_at !== null)
    throw new ConflictError(`This attendance ended at ${attendance.attributes.signed_out_at}.`);
  const how = principal.id === attendance.rels.person ? 'self' : 'manual';
  return signedOut(scope, attendance, now, how, principal).catch((error: unknown) => {
    if (error instanceof WriteRefused)
      throw new ConflictError('The attendance changed meanwhile; read it again.');
    throw error;
  });
};

/**
 * The sign-out due at the site's closing time (`due-work.ts`): the attendance ends at the closing time itself
 * (not when the runner got to it). Moot when it ended already.
 */
export const signOutAtClosing = async (entry: DueEntry) => {
  const scope = scopeOf([entry.org_id], undefined, systemActor('schedules'));
  const attendance = await getItem<StoredResource>(siteAttendances.keyOf(entry.org_id, entry.id), true);
  if (!attendance || attendance.attributes.signed_out_at !== null || attendance.schedule?.sk !== entry.sk) {
    await commit(scope, [removeDueEntryOp(entry)]);
    return;
  }
  // The entry run, by its own key: an entry carried over from its former shape (`former-due-entries.ts`)
  // has the key the record names as its sort key only.
  await signedOut(scope, attendance, new Date(entry.due), 'auto', null, entry);
};
