/**
 * A site's closing time at work: anyone still signed in is signed out then (the `site-attendance-closing`
 * due-work kind, the machine's sign-out made by the system), and a change of the closing time moves the
 * automatic sign-out of every attendance open at the site (the `closing-times` consumer).
 *
 * The reschedule runs from the stream, after the settings commit, not in their transaction: a site's open
 * attendances (2,000 on a large site at noon) are more than one transaction holds. It pages the site's
 * on-site index (only the open attendances: bounded by them, whatever the history) and moves each entry
 * with the attendance's note of it, 33 attendances a transaction. Idempotent and self-correcting: it reads
 * the settings as they are now, not as the event carried, and skips attendances already due at that time.
 * An attendance ends on its site day: the first closing after its sign-in, which may be past if the site
 * now closes earlier (the next run signs it out at that time).
 */
import type { DueEntry } from '#shared/data/due-work';
import { dueEntry, dueEntryOp, removeDueEntryOp } from '#shared/data/due-work';
import type { StoredEvent } from '#shared/data/events';
import { settingsKey, settingsOf } from '#shared/data/organisation-settings';
import { getConsistent, getItem, queryItems, readAheadOr } from '#shared/data/repository';
import { scopeOf, systemActor } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, TRANSACTION_MAX, type WriteOp } from '#shared/data/transaction';
import { moveRecord } from '#shared/engine/transition';
import { DEFAULT_CLOSING_TIME, onSitePartition, siteAttendances, siteOf, siteSettings } from './definitions';
import { AUTO_SIGN_OUT } from './due-work';
import { nextClosing } from './rules/site-day';

/**
 * The sign-out due at the site's closing time (`due-work.ts`): the attendance ends at the closing time itself
 * (not when the runner got to it). Moot when it ended already, or the entry is no longer the one it names.
 */
export const signOutAtClosing = async (entry: DueEntry) => {
  const scope = scopeOf([entry.org_id], undefined, systemActor('schedules'));
  const attendance = await getItem<StoredResource>(siteAttendances.keyOf(entry.org_id, entry.id), true);
  if (!attendance || attendance.attributes.signed_out_at !== null || attendance.schedule?.sk !== entry.sk) {
    await commit(scope, [removeDueEntryOp(entry)]);
    return;
  }
  // The move removes the entry the record names; an entry carried over from its former shape
  // (`former-due-entries.ts`) shares only its sort key, so the one run goes by its own key too.
  const carriedOver = attendance.schedule.pk !== entry.pk;
  await moveRecord(scope, siteAttendances, attendance, 'sign-out', {
    principal: null,
    system: true,
    now: new Date(entry.due),
    also: { ops: carriedOver ? [removeDueEntryOp(entry)] : [] },
  });
};

const actor = systemActor('closing-times');
/** Each attendance moved is three ops: its old entry removed, its new one put, its note of it kept. */
const PER_TRANSACTION = Math.floor(TRANSACTION_MAX / 3);

/** The `closing-times` consumer (`area.ts`): a site's settings created or changed. */
export const rescheduleClosing = async (event: StoredEvent): Promise<void> => {
  if (event.subject.type !== siteSettings.type || !/\.(created|updated)$/.test(event.event)) return;
  const orgId = event.org_id;
  const scope = scopeOf([orgId], undefined, actor);
  const settings = await getConsistent(scope, { ...siteSettings.keyOf(orgId, event.subject.id), orgId });
  const site = settings && siteOf(settings);
  if (!settings || !site) return;
  const closing = String(settings.attributes.closing_time ?? DEFAULT_CLOSING_TIME);
  const [[organisation], open] = await Promise.all([
    readAheadOr<StoredResource>(scope, [settingsKey(orgId)]),
    queryItems<StoredResource>({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :site',
      ExpressionAttributeValues: { ':site': onSitePartition(orgId, site) },
    }),
  ]);
  const zone = settingsOf(organisation ?? null).timezone;
  const moves = open.flatMap((attendance): WriteOp[][] => {
    const signedIn = Date.parse(String(attendance.attributes.signed_in_at));
    const entry = dueEntry(AUTO_SIGN_OUT.name, orgId, attendance.id, nextClosing(signedIn, closing, zone));
    const { schedule } = attendance;
    if (schedule?.pk === entry.pk && schedule.sk === entry.sk) return [];
    return [
      [
        ...(schedule ? [removeDueEntryOp(schedule)] : []),
        dueEntryOp(entry),
        {
          keep: {
            key: siteAttendances.keyOf(orgId, attendance.id),
            set: { schedule: { pk: entry.pk, sk: entry.sk } },
          },
        },
      ],
    ];
  });
  for (let at = 0; at < moves.length; at += PER_TRANSACTION)
    await commit(scope, moves.slice(at, at + PER_TRANSACTION).flat());
};
