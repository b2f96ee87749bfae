/**
 * Folders and documents. Folders form a tree per organisation, filed on `gsi1` (`FOLDERS#<org>`, sort key
 * = the path of ids from the root) so a subtree is one Query; a folder's `meta.path` (names from the
 * root), `document_count` and `size` (its whole subtree's current document versions) are derived on
 * every read from that Query, the ancestors, and per-folder counters kept with each document write.
 */
import { batchGet, batchGetInScope, queryItems } from '../../data/repository';
import type { Scope } from '../../data/scope';
import { counterKey, type StoredResource } from '../../data/stored-resource';
import { createdAtSort, defineResource } from '../resource-definition';

export const folderTreeKey = (orgId: string) => `FOLDERS#${orgId}`;
export const folderCounters = (orgId: string, folderId: string) => ({
  documents: counterKey(orgId, `folder-documents#${folderId}`),
  bytes: counterKey(orgId, `folder-bytes#${folderId}`),
});

/** The folder records of a subtree (the folder itself included). */
export const folderSubtree = (folder: StoredResource) =>
  queryItems<StoredResource>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :g AND begins_with(gsi1sk, :p)',
    ExpressionAttributeValues: { ':g': folderTreeKey(folder.org_id), ':p': folder.gsi1sk ?? folder.id },
  });

const withTreeFacts = async (scope: Scope, folder: StoredResource): Promise<StoredResource> => {
  const ancestorIds = (folder.gsi1sk ?? folder.id).split('/').slice(0, -1);
  const [subtree, ancestors] = await Promise.all([
    folderSubtree(folder),
    batchGetInScope(
      scope,
      ancestorIds.map((id) => folders.keyOf(folder.org_id, id)),
    ),
  ]);
  const counters = await batchGet<{ sk: string; count?: number }>(
    subtree.flatMap((f) => Object.values(folderCounters(f.org_id, f.id))),
  );
  const sum = (kind: string) =>
    counters
      .filter((c) => c.sk.startsWith(`folder-${kind}#`))
      .reduce((total, c) => total + (c.count ?? 0), 0);
  const names = new Map(ancestors.map((a) => [a.id, String(a.attributes.name)]));
  return {
    ...folder,
    meta: {
      ...folder.meta,
      document_count: sum('documents'),
      size: sum('bytes'),
      path: `/${[...ancestorIds.map((id) => names.get(id) ?? id), String(folder.attributes.name)].join('/')}`,
    },
  };
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
  relationships: {
    organisation: { type: 'organisations' },
    author: { type: 'users' },
    author_service_account: { type: 'service-accounts' },
    parent: { type: 'folders' },
    scheme: { type: 'schemes' },
    work_order: { type: 'work-orders' },
    qualification_award: { type: 'qualification-awards' },
  },
  derive: (scope, items) => Promise.all(items.map((f) => withTreeFacts(scope, f))),
  collection: {
    filters: {
      parent: { kind: 'eq', path: 'rels.parent' },
      scheme: { kind: 'eq', path: 'rels.scheme' },
      name: { kind: 'eq', path: 'attributes.name' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' }, ...createdAtSort },
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
  relationships: {
    organisation: { type: 'organisations' },
    folder: { type: 'folders' },
    current_version: { type: 'document-versions' },
    author: { type: 'users' },
    author_service_account: { type: 'service-accounts' },
  },
  collection: {
    filters: {
      status: { kind: 'eq', path: 'attributes.status' },
      content_type: { kind: 'eq', path: 'attributes.content_type' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: { name: { path: 'attributes.name' }, ...createdAtSort },
    defaultSort: 'name',
    includes: ['folder', 'current_version', 'author'],
  },
});

export const documentVersions = defineResource({
  type: 'document-versions',
  events: ['completed'],
  names: { one: 'DocumentVersion', many: 'DocumentVersions' },
  collectionPath: '/v3/documents/{document_id}/versions',
  itemPath: '/v3/document-versions/{version_id}',
  permission: 'documents',
  endpoints: {
    list: 'functions/documents/versions/list.ts',
    get: true,
    create: {
      handler: 'functions/documents/versions/create.ts',
      access: { table: 'write', buckets: { documents: 'write' } },
    },
  },
  relationships: {
    organisation: { type: 'organisations' },
    document: { type: 'documents' },
    author: { type: 'users' },
    author_service_account: { type: 'service-accounts' },
  },
  collection: {
    filters: { status: { kind: 'eq', path: 'attributes.status' } },
    sorts: { number: { path: 'attributes.number' }, ...createdAtSort },
    defaultSort: '-number',
    includes: [],
  },
});
