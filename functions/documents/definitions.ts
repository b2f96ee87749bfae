/**
 * Folders and documents. Folders form a tree per organisation, filed on `gsi1` (`FOLDERS#<org>`, sort key
 * = the path of ids from the root) so a subtree is one Query. A folder keeps its `meta.path` (names from
 * the root; a rename reaches the subtree from the stream, see folder-paths.ts), and a tally item holds its
 * whole subtree's `document_count` and `size` (current document versions): every document write moves
 * the tallies of its folder and each ancestor in its own transaction, so a folder, or a page of them,
 * reads one tally each, in the BatchGetItem that reads the rest.
 */

import { declareAccessPatterns, partitionFrom } from '#shared/data/access-patterns';
import { queryItems, readAheadOr } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import { counterKey, keyId, type StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

const keys = /* @__PURE__ */ declareAccessPatterns('documents/definitions', {
  tree: {
    index: 'gsi1',
    pk: 'FOLDERS#{org_id}',
    sk: '{path}',
    about: 'a folder, by its path of ids: a subtree is one `begins_with` Query',
  },
});
export const folderTreeKey = (orgId: string) => partitionFrom(keys.tree, { org_id: orgId });

/** A folder's subtree totals; `version` moves with every change, so a reader can require it unchanged. */
export interface FolderTally {
  pk: string;
  sk: string;
  documents?: number;
  bytes?: number;
  version?: number;
}
export const folderTallyKey = (orgId: string, folderId: string) =>
  counterKey(orgId, `folder-tree#${folderId}`);

/**
 * A folder's count of its subfolders (those marked `parent_counted`): every folder create, move and delete
 * moves it in its own transaction, so a delete of the folder can require it to stand at what it read.
 */
export const subfolderCountKey = (orgId: string, folderId: string) =>
  counterKey(orgId, `folders#${folderId}#folders`);

/** The parent whose count of subfolders holds `folder` (none for a root, or one filed before the count). */
export const countedParent = (folder: StoredResource): string | null =>
  folder.parent_counted && typeof folder.rels.parent === 'string' ? folder.rels.parent : null;

/** A subfolder joining (`by` 1) or leaving (-1) the count of `parentId`'s subfolders. */
export const subfolderMove = (orgId: string, parentId: string, by: 1 | -1): WriteOp => ({
  count: { key: subfolderCountKey(orgId, parentId), by },
});

/** The ids from the root to the folder, itself last. */
export const folderLineage = (folder: StoredResource) => (folder.gsi1sk ?? folder.id).split('/');

/** Each subfolder's path beneath `top` (whose path is `path`), from the names its subtree holds. */
export const pathsBeneath = (top: StoredResource, path: string, subtree: readonly StoredResource[]) => {
  const names = new Map(subtree.map((f) => [f.id, String(f.attributes.name)]));
  const depth = folderLineage(top).length;
  return new Map(
    subtree
      .filter((f) => f.id !== top.id)
      .map((f) => [
        f.id,
        [
          path,
          ...folderLineage(f)
            .slice(depth)
            .map((id) => names.get(id)),
        ].join('/'),
      ]),
  );
};

/** Adds `by` to the tallies of the folders `ids` (a lineage, or part of one). */
export const tallyMoves = (
  orgId: string,
  ids: readonly string[],
  by: { documents: number; bytes: number },
): WriteOp[] => ids.map((id) => ({ tally: { key: folderTallyKey(orgId, id), add: { ...by, version: 1 } } }));

/**
 * A change of `by` to the documents in `folder`: its tally and its ancestors' move, and the folder must
 * still be where it was read (a move bumps the version of every folder it carries).
 */
export const documentMoves = (
  folder: StoredResource,
  by: { documents: number; bytes: number },
): WriteOp[] => [
  ...tallyMoves(folder.org_id, folderLineage(folder), by),
  { check: { ...folders.keyOf(folder.org_id, folder.id), version: folder.version } },
];

/** The folder records of a subtree (the folder itself included). */
export const folderSubtree = (folder: StoredResource) =>
  queryItems<StoredResource>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :g AND begins_with(gsi1sk, :p)',
    ExpressionAttributeValues: { ':g': folderTreeKey(folder.org_id), ':p': folder.gsi1sk ?? folder.id },
  });

/** Folders with their subtree totals: one tally each, read ahead for a single GET. */
const withTallies = async (scope: Scope, items: StoredResource[]): Promise<StoredResource[]> => {
  const found = await readAheadOr<FolderTally>(
    scope,
    items.map((f) => folderTallyKey(f.org_id, f.id)),
  );
  const byKey = new Map(found.map((t) => [keyId(t), t]));
  return items.map((folder) => {
    const tally = byKey.get(keyId(folderTallyKey(folder.org_id, folder.id)));
    return {
      ...folder,
      meta: { ...folder.meta, document_count: tally?.documents ?? 0, size: tally?.bytes ?? 0 },
    };
  });
};

export const folders = defineResource({
  type: 'folders',
  tag: 'Folders',
  names: { one: 'Folder', many: 'Folders' },
  collectionPath: '/v3/orgs/{org_id}/folders',
  itemPath: '/v3/folders/{folder_id}',
  permission: 'documents',
  endpoints: {
    list: true,
    get: true,
    create: 'functions/documents/folders/create.ts',
    update: 'functions/documents/folders/update.ts',
    delete: {
      handler: 'functions/documents/folders/delete.ts',
      access: { table: 'write', buckets: { documents: 'write' } },
      query: ['recursive'],
    },
  },
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return { name: z.string() };
  },
  relationships: {
    author: { type: 'users' },
    author_service_account: { type: 'service-accounts' },
    parent: { type: 'folders' },
    scheme: { type: 'schemes' },
    work_order: { type: 'work-orders' },
    qualification_award: { type: 'qualification-awards' },
  },
  derive: withTallies,
  derivedKeys: (orgId, id) => [folderTallyKey(orgId, id)],
  // `gsi1` files the tree (`keys` above), so a folder's filter entries are a local index and `gsi2`.
  keys: {
    'filter-parent': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#folders',
      sk: 'parent#{rels.parent}#{id}',
      about:
        'a subfolder under its parent, in creation order: `filter[parent]`; folders written before issue 42 lack it until migrated',
    },
    'filter-scheme': {
      index: 'gsi2',
      pk: 'ORG#{org_id}#folders',
      sk: 'scheme#{rels.scheme}#{id}',
      about:
        "a scheme's folder, in creation order: `filter[scheme]`; folders written before issue 42 lack it until migrated",
    },
  },
  collection: {
    // Every filter is indexed (folders grow with every scheme): none reads the whole partition.
    filters: {
      parent: { kind: 'eq', path: 'rels.parent', index: 'filter-parent' },
      scheme: { kind: 'eq', path: 'rels.scheme', index: 'filter-scheme' },
      name: { kind: 'eq', path: 'attributes.name', index: 'sort-name' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: ['author', 'parent', 'organisation', 'scheme'],
  },
});

export const documents = defineResource({
  type: 'documents',
  names: { one: 'Document', many: 'Documents' },
  collectionPath: '/v3/folders/{folder_id}/documents',
  itemPath: '/v3/documents/{document_id}',
  permission: 'documents',
  endpoints: {
    list: 'functions/documents/documents/list.ts',
    get: true,
    create: {
      handler: 'functions/documents/documents/create.ts',
      access: { table: 'write', buckets: { documents: 'write' } },
    },
    update: 'functions/documents/documents/update.ts',
    delete: {
      handler: 'functions/documents/documents/delete.ts',
      access: { table: 'write', buckets: { documents: 'write' } },
    },
  },
  // The current version's file: null until its first upload completes.
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return {
      name: z.string(),
      status: z.enum(['pending', 'available']),
      content_type: z.string().nullable(),
      size: z.number().int().nullable().describe('Bytes.'),
      checksum: z.string().nullable().describe('SHA-256, base64.'),
      version_count: z.number().int(),
    };
  },
  relationships: {
    folder: { type: 'folders' },
    current_version: { type: 'document-versions' },
    author: { type: 'users' },
    author_service_account: { type: 'service-accounts' },
  },
  // A folder's documents are listed under it, so each filter's entry is per folder (documents grow with
  // every scheme): a status or a content type as a local index prefix, a window on the folder's `gsi2` ids.
  keys: {
    'filter-status': {
      index: 'lsi1',
      pk: 'ORG#{org_id}#documents',
      sk: 'folder#{rels.folder}#status#{attributes.status}#{id}',
      about:
        "a folder's document under its status, in creation order: `filter[status]`; documents written before issue 42 lack it until migrated",
    },
    'filter-content-type': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#documents',
      sk: 'folder#{rels.folder}#type#{attributes.content_type}#{id}',
      about:
        "a folder's document under its current file's content type (none until uploaded), in creation order: `filter[content_type]`; documents written before issue 42 lack it until migrated",
    },
    'filter-folder-created': {
      index: 'gsi2',
      pk: 'DOCUMENTS#{rels.folder}',
      sk: '{id}',
      about:
        "a folder's document by id (creation order): `filter[created_at.since/until]`; documents written before issue 42 lack it until migrated",
    },
  },
  collection: {
    filters: {
      status: { kind: 'eq', path: 'attributes.status', index: 'filter-status' },
      content_type: { kind: 'eq', path: 'attributes.content_type', index: 'filter-content-type' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'filter-folder-created' },
    },
    sorts: { name: { path: 'attributes.name' } },
    defaultSort: 'name',
    includes: ['folder', 'current_version', 'author'],
  },
  // A folder's documents are keyed in its partition by name, their default order.
  childSorts: ['name'],
});
