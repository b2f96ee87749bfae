/**
 * Folders made before they kept their path and tallies (issue 19, 5ef28c1) have no `meta.path`, and their
 * documents were counted per folder alone (`folder-documents#<id>`, `folder-bytes#<id>` counters), which
 * nothing reads now: a folder answered no path and 0 documents, 0 bytes for what was filed before. Each
 * such folder gets the path a create writes today (names from the root), and each old counter pair is
 * moved into the tallies of its folder and every ancestor, as a document write moves them, and removed in
 * the same transaction (only while it holds what was read, so it is moved once).
 */
import { rewriteRecord, takeCounter } from '#shared/data/migrations';
import { batchGet, getItem } from '#shared/data/repository';
import { scopeOf, systemActor } from '#shared/data/scope';
import { counterKey, type StoredResource } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { documentMoves, folderLineage, folders } from '../definitions';

const actor = systemActor('migrations');
const OLD_COUNTER = /^folder-(documents|bytes)#(.+)$/;

const oldCounters = (orgId: string, folderId: string) => ({
  documents: counterKey(orgId, `folder-documents#${folderId}`),
  bytes: counterKey(orgId, `folder-bytes#${folderId}`),
});

/** Its path from the root, as `createFolder` writes it: `/<name>/…/<its name>`. */
const pathOf = async (folder: StoredResource) => {
  const ids = folderLineage(folder);
  const found = await batchGet(ids.map((id) => folders.keyOf(folder.org_id, id)));
  const names = new Map(found.map((f) => [f.id, String(f.attributes.name)]));
  if (ids.some((id) => !names.has(id))) return null;
  return `/${ids.map((id) => names.get(id)).join('/')}`;
};

const withPath = async (read: StoredResource): Promise<number> => {
  let folder: StoredResource | null = read;
  for (let attempt = 0; folder && folder.meta.path === undefined && attempt < 3; attempt++) {
    const path = await pathOf(folder);
    if (path === null) return 0;
    if (await rewriteRecord(folder, { ...folder, meta: { ...folder.meta, path } })) return 1;
    folder = await getItem<StoredResource>({ pk: folder.pk, sk: folder.sk }, true);
  }
  return 0;
};

/** One folder's old counters moved into its lineage's tallies, read again when a write raced the move. */
const tallied = async (orgId: string, folderId: string, attempt = 1): Promise<number> => {
  const keys = oldCounters(orgId, folderId);
  const [folder, documents, bytes] = await Promise.all([
    getItem<StoredResource>(folders.keyOf(orgId, folderId), true),
    getItem<{ count?: number }>(keys.documents, true),
    getItem<{ count?: number }>(keys.bytes, true),
  ]);
  if (!folder || (!documents && !bytes)) return 0;
  const by = { documents: documents?.count ?? 0, bytes: bytes?.count ?? 0 };
  try {
    await commit(scopeOf([orgId], undefined, actor), [
      ...documentMoves(folder, by),
      takeCounter(keys.documents, documents?.count),
      takeCounter(keys.bytes, bytes?.count),
    ]);
    return 1;
  } catch (error) {
    if (error instanceof WriteRefused && attempt < 3) return tallied(orgId, folderId, attempt + 1);
    throw error;
  }
};

export const folderTallies: MigrationStep = {
  select: {
    // Folders without a path, and the per-folder counters of documents and bytes nothing reads now.
    expression:
      'begins_with(pk, :tenant) AND ((#type = :folders AND sk = #id AND attribute_not_exists(#meta.#path)) OR begins_with(sk, :documents) OR begins_with(sk, :bytes))',
    names: { '#type': 'type', '#id': 'id', '#meta': 'meta', '#path': 'path' },
    values: {
      ':tenant': 'ORG#',
      ':folders': folders.type,
      ':documents': 'folder-documents#',
      ':bytes': 'folder-bytes#',
    },
  },
  migrate: async (items) => {
    // A folder's two counters, handed in one page or two, are moved together once (the second finds none).
    const counted = new Map<string, { orgId: string; folderId: string }>();
    for (const item of items) {
      const folderId = OLD_COUNTER.exec(item.sk)?.[2];
      // A counter's partition is `ORG#<org>#counters`.
      const orgId = item.pk.split('#')[1];
      if (folderId && orgId) counted.set(`${orgId}#${folderId}`, { orgId, folderId });
    }
    // Paths first: a tally's move requires its folder unchanged since it read it.
    const paths = await Promise.all(items.filter((item) => item.type === folders.type).map(withPath));
    const tallies = await Promise.all(
      [...counted.values()].map(({ orgId, folderId }) => tallied(orgId, folderId)),
    );
    return [...paths, ...tallies].reduce((sum, n) => sum + n, 0);
  },
};
