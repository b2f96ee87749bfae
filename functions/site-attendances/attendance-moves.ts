/**
 * What an attendance's one move, sign-out (its declaration: `definitions.ts`), writes beside the record:
 * the person's open-attendance claim goes (so they may sign in again) and the automatic sign-out due at
 * closing time goes, while the attendance leaves the on-site index. Loaded when the move is made (every
 * function reads the declaration, few sign anyone out), so it imports nothing that imports the declaration.
 */
import { declareAccessPatterns, keyFrom } from '#shared/data/access-patterns';
import { removeDueEntryOp } from '#shared/data/due-work';
import { type StoredResource, tenantPattern } from '#shared/data/stored-resource';
import type { MoveWrites } from '#shared/engine/lifecycle';
import { siteOf } from './rules/sites';

/** Where a person's open attendance at a site is claimed: one at a time. */
const keys = /* @__PURE__ */ declareAccessPatterns('site-attendances/attendance-moves', {
  'open-attendance': {
    ...tenantPattern('open-attendances', '{site_id}#{person_id}'),
    about: '`holder_id` (the attendance); claimed at sign-in, removed at sign-out',
  },
});
export const openAttendanceKey = (orgId: string, siteId: string, personId: string) =>
  keyFrom(keys['open-attendance'], { org_id: orgId, site_id: siteId, person_id: personId });

/** Off the on-site index and the schedule; the person's claim at the site released. */
export const signOutWrites = (moved: StoredResource, before: StoredResource): MoveWrites => {
  const { gsi1pk: _pk, gsi1sk: _sk, schedule: _entry, ...record } = moved;
  const person = before.rels.person;
  return {
    record,
    ops: [
      ...(typeof person === 'string'
        ? [{ remove: openAttendanceKey(before.org_id, siteOf(before) ?? '', person) }]
        : []),
      ...(before.schedule ? [removeDueEntryOp(before.schedule)] : []),
    ],
  };
};
