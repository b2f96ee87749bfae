/**
 * Migration 28: the audit consumer keeps no state per subject (issue 42, item 7: each event carries what
 * its write changed). What it kept before goes: every former state item (`ORG#<org>#audit-states`) is
 * deleted; a subject's history item (`ORG#<org>#counters`/`audit-events#<subject id>`) stays, without its
 * `state` and `mark` (the order its events were recorded in, no longer kept), while its subject is a
 * record whose history a route lists (a vehicle: its count is that history's total), and is deleted for
 * any other subject, whose count nothing reads. Deleting an item already gone, or removing what was
 * removed, changes nothing: a rerun is safe.
 */
import { vehicles } from '#functions/assets/definitions';
import { deleteUnread, removeUnread } from '#shared/data/migrations';
import { batchGet } from '#shared/data/repository';
import { keyId, type StoredResource } from '#shared/data/stored-resource';
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { historySubjects } from '../audit-events';

/** The types whose history a route lists, by their declarations (imported: a bundle may not load them all). */
const LISTED = [vehicles];
if (LISTED.length !== historySubjects.size || LISTED.some((d) => !historySubjects.has(d.type)))
  throw new Error('audit-states: list here the declaration of every type in historySubjects');

const HISTORY = 'audit-events#';
/** A history item's organisation and subject, from its key (`ORG#<org>#counters`, `audit-events#<id>`). */
const subjectKeys = (item: StoredResource) =>
  LISTED.map((d) => d.keyOf(item.pk.split('#')[1] ?? '', item.sk.slice(HISTORY.length)));

/** Whether a history item's subject is a record a history route lists, by key. */
const listedSubjects = async (items: readonly StoredResource[]) => {
  const found = new Set((await batchGet(items.flatMap(subjectKeys))).map(keyId));
  return (item: StoredResource) => subjectKeys(item).some((key) => found.has(keyId(key)));
};

export const auditStates: MigrationStep = {
  select: {
    expression:
      'begins_with(pk, :org) AND (contains(pk, :states) OR (contains(pk, :counters) AND begins_with(sk, :history)))',
    values: { ':org': 'ORG#', ':states': '#audit-states', ':counters': '#counters', ':history': HISTORY },
  },
  migrate: async (items) => {
    const states = items.filter((item) => item.pk.endsWith('#audit-states'));
    const histories = items.filter((item) => item.pk.endsWith('#counters') && item.sk.startsWith(HISTORY));
    const listed = await listedSubjects(histories);
    const changes = [
      ...states.map((item) => deleteUnread(item)),
      ...histories.map((item) =>
        !listed(item)
          ? deleteUnread(item)
          : 'state' in item || 'mark' in item
            ? removeUnread(item, ['state', 'mark'])
            : false,
      ),
    ];
    return (await Promise.all(changes)).filter(Boolean).length;
  },
};
