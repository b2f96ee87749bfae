/**
 * Folder writes. A folder names its parent (or none: a root) and keeps its place in the tree index;
 * renaming changes nothing else (paths are derived on read); moving rewrites the tree keys of its whole
 * subtree in one transaction; deleting a folder with anything in it is 409 unless `recursive`.
 */
import * as z from 'zod';
import type { Principal } from '../../auth/principal';
import { config } from '../../config';
import { deleteObjects } from '../../data/files';
import { readIndex } from '../../data/repository';
import type { Scope } from '../../data/scope';
import type { StoredRelationship, StoredResource } from '../../data/stored-resource';
import { TRANSACTION_MAX, transactionSize, type WriteOp } from '../../data/transaction';

/** A folder and its subfolders move in one transaction, each with its event, beside the parent's check. */
const SUBFOLDERS_MOVED_MAX = Math.floor((TRANSACTION_MAX - 3) / 2);

import { ConflictError, ValidationError } from '../../jsonapi/errors';
import { assertSameId, identifier, parseDocument } from '../../jsonapi/request-document';
import { childIndexKey } from '../children';
import {
  byPrincipal,
  changedRecord,
  commitChecked,
  createRecord,
  newRecord,
  replaceRecord,
  storedRelationships,
} from '../record-writes';
import { readInScope } from '../single';
import {
  documents,
  documentVersions,
  folderCounters,
  folderSubtree,
  folders,
  folderTreeKey,
} from './definitions';
import { versionFiles } from './documents';

/** Deep enough for any filing scheme, shallow enough that a path stays a short key. */
export const MAX_DEPTH = 20;

const name = z.lazy(() =>
  z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((n) => !n.includes('/'), 'A folder name cannot contain /.'),
);
const rel = (type: string) => z.strictObject({ data: identifier(type).nullable() }).optional();
const relationships = z.lazy(() =>
  z
    .strictObject({
      parent: rel('folders'),
      scheme: rel('schemes'),
      work_order: rel('work-orders'),
      qualification_award: rel('qualification-awards'),
    })
    .optional(),
);

export const createFolderDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({ type: z.literal('folders'), attributes: z.strictObject({ name }), relationships }),
  }),
);
export const updateFolderDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('folders'),
      id: z.uuid(),
      attributes: z.strictObject({ name }).partial().optional(),
      relationships,
    }),
  }),
);

const tree = (orgId: string, path: string) => ({ gsi1pk: folderTreeKey(orgId), gsi1sk: path });

const parentOf = async (scope: Scope, orgId: string, id: StoredRelationship | undefined) => {
  if (typeof id !== 'string') return null;
  const parent = await readInScope(scope, folders, id).catch(() => null);
  if (!parent || parent.org_id !== orgId) {
    throw new ValidationError({
      detail: 'No such folder in this organisation.',
      source: { pointer: '/data/relationships/parent/data' },
    });
  }
  if ((parent.gsi1sk ?? '').split('/').length >= MAX_DEPTH) {
    throw new ConflictError(`Folders nest at most ${MAX_DEPTH} deep.`, {
      pointer: '/data/relationships/parent',
    });
  }
  return parent;
};

export const createFolder = async (
  scope: Scope,
  orgId: string,
  body: unknown,
  principal?: Principal | null,
  now = new Date(),
) => {
  const { data } = parseDocument(createFolderDocument, body);
  const rels = storedRelationships(data.relationships);
  const parent = await parentOf(scope, orgId, rels.parent);
  const record = newRecord(
    folders,
    orgId,
    {
      attributes: data.attributes,
      rels: {
        ...rels,
        ...byPrincipal('author', principal),
      },
    },
    now,
  );
  const placed = { ...record, ...tree(orgId, parent ? `${parent.gsi1sk}/${record.id}` : record.id) };
  const { parent: _parent, qualification_award: _award, ...checked } = rels;
  return createRecord(
    scope,
    folders,
    placed,
    parent ? [{ check: folders.keyOf(orgId, parent.id) }] : [],
    undefined,
    checked,
  );
};

export const updateFolder = async (scope: Scope, folder: StoredResource, body: unknown, now = new Date()) => {
  const { data } = parseDocument(updateFolderDocument, body);
  assertSameId(data.id, folder.id);
  const rels = storedRelationships(data.relationships);
  const moving = 'parent' in rels && rels.parent !== (folder.rels.parent ?? null);
  const next = changedRecord(folders, folder, { attributes: data.attributes ?? {}, rels }, now);
  if (!moving) {
    const { parent: _p, qualification_award: _a, ...checked } = rels;
    return replaceRecord(scope, folders, next, checked);
  }
  const parent = await parentOf(scope, folder.org_id, rels.parent);
  const from = folder.gsi1sk ?? folder.id;
  if (parent && `${parent.gsi1sk}/`.startsWith(`${from}/`)) {
    throw new ConflictError('A folder cannot move into itself or its own subfolders.', {
      pointer: '/data/relationships/parent',
    });
  }
  const to = parent ? `${parent.gsi1sk}/${folder.id}` : folder.id;
  const subtree = (await folderSubtree(folder)).filter((f) => f.id !== folder.id);
  const moved = (f: StoredResource) => ({
    ...f,
    version: f.version + 1,
    gsi1sk: `${to}${(f.gsi1sk ?? '').slice(from.length)}`,
  });
  const ops: WriteOp[] = [
    { replace: { ...next, gsi1sk: to } },
    ...subtree.map((f) => ({ replace: moved(f) })),
    ...(parent ? [{ check: folders.keyOf(folder.org_id, parent.id) }] : []),
  ];
  // Each folder moved is written with its event: two items.
  if (transactionSize(ops) > TRANSACTION_MAX) {
    throw new ConflictError(
      `Moving more than ${SUBFOLDERS_MOVED_MAX} subfolders at once is not supported; move them in parts.`,
    );
  }
  await commitChecked(scope, ops, []);
  return { ...next, gsi1sk: to };
};

/**
 * Deletes a folder. With anything in it (subfolders or documents) it is 409 unless `recursive`, which
 * deletes the subtree, its documents and their versions in one transaction, then their files.
 */
export const deleteFolder = async (scope: Scope, folder: StoredResource, recursive: boolean) => {
  const subtree = await folderSubtree(folder);
  const docs = (
    await Promise.all(subtree.map((f) => readIndex(scope, childIndexKey(f, documents.type))))
  ).flat();
  if (!recursive && (subtree.length > 1 || docs.length > 0)) {
    throw new ConflictError(
      `The folder holds ${subtree.length - 1} subfolders and ${docs.length} documents; delete with ?recursive=true to delete them too.`,
    );
  }
  const versions = (
    await Promise.all(docs.map((d) => readIndex(scope, childIndexKey(d, documentVersions.type))))
  ).flat();
  const ops: WriteOp[] = [
    ...subtree.flatMap((f): WriteOp[] => [
      { delete: f },
      ...Object.values(folderCounters(f.org_id, f.id)).map((key) => ({ remove: key })),
    ]),
    ...docs.map((d) => ({ delete: d })),
    ...versions.map((v) => ({ delete: v })),
  ];
  if (transactionSize(ops) > TRANSACTION_MAX) {
    throw new ConflictError('Too much to delete in one step; delete some subfolders or documents first.');
  }
  await commitChecked(scope, ops, []);
  await deleteObjects(config.DOCUMENTS_BUCKET, versions.flatMap(versionFiles));
};
