/**
 * An attendance's one move, sign-out (its declaration: `definitions.ts`), and what it writes beside the
 * record: the person's open-attendance claim goes (so they may sign in again) and the automatic sign-out
 * due at closing time goes, while the attendance leaves the on-site index. Apart from the writes that
 * import the declaration, so the declaration can name these.
 */
import { declareAccessPatterns, keyFrom } from '#shared/data/access-patterns';
import { removeDueEntryOp } from '#shared/data/due-work';
import { type StoredResource, tenantPattern } from '#shared/data/stored-resource';
import type { MoveContext, MoveWrites } from '#shared/engine/lifecycle';
import { byPrincipal } from '#shared/engine/moments';

/** Where a person's open attendance at a site is claimed: one at a time. */
const keys = /* @__PURE__ */ declareAccessPatterns('site-attendances/attendance-moves', {
  'open-attendance': {
    ...tenantPattern('open-attendances', '{site_id}#{person_id}'),
    about: '`holder_id` (the attendance); claimed at sign-in, removed at sign-out',
  },
});
export const openAttendanceKey = (orgId: string, siteId: string, personId: string) =>
  keyFrom(keys['open-attendance'], { org_id: orgId, site_id: siteId, person_id: personId });

/** The site an attendance or a site's settings name: its scheme or its location. */
export const siteOf = (record: Pick<StoredResource, 'rels'>): string | null => {
  const { scheme, location } = record.rels;
  return typeof scheme === 'string' ? scheme : typeof location === 'string' ? location : null;
};

/** An attendance is on site until it has an end; no state is stored beside the times. */
export const attendanceState = (attendance: StoredResource) =>
  attendance.attributes.signed_out_at === null ? 'on_site' : 'signed_out';

/**
 * The end, now: by the person themselves (`self`), someone at the gate (`manual`), or the schedule at the
 * site's closing time (`auto`: the system's move, whose `now` is the closing time itself).
 */
export const signedOutChanges = (attendance: StoredResource, { principal, now }: MoveContext) => ({
  attributes: {
    signed_out_at: now.toISOString(),
    method_out: principal === null ? 'auto' : principal.id === attendance.rels.person ? 'self' : 'manual',
  },
  meta: { on_site: false },
  rels: byPrincipal('signed_out_by', principal, 'signed_out_by'),
});

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
