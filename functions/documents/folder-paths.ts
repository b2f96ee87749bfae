/**
 * A folder renamed: every folder beneath it is shown its new path (`meta.path`, kept on each folder). From
 * the stream, after the rename commits, because a subtree may hold more folders than one transaction
 * (a move, which rewrites the subtree's tree keys anyway, writes their paths in its own transaction).
 * Idempotent and self-correcting: it writes the paths the folder's subtree has now, whatever the event
 * carried, and only those that differ; a folder changed meanwhile refuses the write, and the event is
 * handed again.
 */
import type { StoredEvent } from '#shared/data/events';
import { getConsistent } from '#shared/data/repository';
import { scopeOf, systemActor } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, TRANSACTION_MAX } from '#shared/data/transaction';
import { changedRecord } from '#shared/engine/record-writes';
import { folderSubtree, folders, pathsBeneath } from './definitions';

const actor = systemActor('folder-paths');

/** The `folder-paths` consumer (`area.ts`). */
export const keepFolderPaths = async (event: StoredEvent): Promise<void> => {
  // The consumer's own writes carry the paths it computed for their whole subtrees.
  if (event.subject.type !== folders.type || !event.event.endsWith('.updated')) return;
  if (event.actor.kind === actor.kind && event.actor.id === actor.id) return;
  const scope = scopeOf([event.org_id], undefined, actor);
  const folder = await getConsistent(scope, {
    ...folders.keyOf(event.org_id, event.subject.id),
    orgId: event.org_id,
  });
  if (!folder) return;
  const subtree = await folderSubtree(folder);
  const paths = pathsBeneath(folder, String(folder.meta.path), subtree);
  const now = new Date();
  const stale: { replace: StoredResource; was: StoredResource }[] = [];
  for (const sub of subtree) {
    const path = paths.get(sub.id);
    if (path !== undefined && sub.meta.path !== path)
      stale.push({ replace: changedRecord(folders, sub, { meta: { path } }, now), was: sub });
  }
  // Each folder is written with its event: two items.
  for (let at = 0; at < stale.length; at += TRANSACTION_MAX / 2) {
    await commit(scope, stale.slice(at, at + TRANSACTION_MAX / 2));
  }
};
