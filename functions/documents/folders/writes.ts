/**
 * Folder writes. A folder names its parent (or none: a root) and keeps its place in the tree index and
 * its path of names. Renaming writes the folder's own path (its subfolders' follow from the stream);
 * moving rewrites the tree keys and paths of its whole subtree in one transaction and moves its totals
 * from the old ancestors' tallies to the new ones'; deleting a folder with anything in it is 409 unless
 * `recursive`.
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { config } from '#shared/config';
import { deleteObjects } from '#shared/data/files';
import { getItem, holdAhead, readIndex } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import { counterKey, type StoredRelationship, type StoredResource } from '#shared/data/stored-resource';
import { TRANSACTION_MAX, transactionSize, type WriteOp } from '#shared/data/transaction';
import { childIndexKey } from '#shared/engine/children';
import {
  byPrincipal,
  changedRecord,
  commitChecked,
  createRecord,
  newRecord,
  replaceRecord,
  storedRelationships,
} from '#shared/engine/record-writes';
import { readInScope } from '#shared/engine/single';
import { ConflictError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, identifier, parseDocument } from '#shared/jsonapi/request-document';
import {
  countedParent,
  documents,
  type FolderTally,
  folderLineage,
  folderSubtree,
  folders,
  folderTallyKey,
  folderTreeKey,
  pathsBeneath,
  subfolderCountKey,
  subfolderMove,
  tallyMoves,
} from '../definitions';
import { versionFiles } from '../documents/writes';
import { documentVersions } from '../versions/definition';

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

/** The parent as read: its path (and place) are what a new child's path was built from. */
const parentUnchanged = (parent: StoredResource): WriteOp => ({
  check: { ...folders.keyOf(parent.org_id, parent.id), version: parent.version },
});

/** The path of names of a folder named `name` beneath `parent` (none: a root). */
const pathIn = (parent: StoredResource | null, name: string) =>
  `${parent ? String(parent.meta.path) : ''}/${name}`;

/** A folder's subtree totals, consistently read, and an op requiring them unchanged at commit. */
const totalsOf = async (folder: StoredResource) => {
  const key = folderTallyKey(folder.org_id, folder.id);
  const tally = await getItem<FolderTally>(key, true);
  return {
    documents: tally?.documents ?? 0,
    bytes: tally?.bytes ?? 0,
    unchanged: { check: { ...key, version: tally?.version ?? 0 } } as WriteOp,
  };
};

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
      meta: { path: pathIn(parent, data.attributes.name) },
      rels: {
        ...rels,
        ...byPrincipal('author', principal),
      },
    },
    now,
  );
  const placed: StoredResource = {
    ...record,
    ...tree(orgId, parent ? `${parent.gsi1sk}/${record.id}` : record.id),
    ...(parent && { parent_counted: true }),
  };
  const { parent: _parent, ...checked } = rels;
  const tally: FolderTally = { ...folderTallyKey(orgId, record.id), documents: 0, bytes: 0, version: 0 };
  await createRecord(
    scope,
    folders,
    placed,
    [{ put: tally }, ...(parent ? [parentUnchanged(parent), subfolderMove(orgId, parent.id, 1)] : [])],
    undefined,
    checked,
  );
  holdAhead(scope, [tally]);
  return placed;
};

export const updateFolder = async (scope: Scope, folder: StoredResource, body: unknown, now = new Date()) => {
  const { data } = parseDocument(updateFolderDocument, body);
  assertSameId(data.id, folder.id);
  const rels = storedRelationships(data.relationships);
  const moving = 'parent' in rels && rels.parent !== (folder.rels.parent ?? null);
  const name = data.attributes?.name ?? String(folder.attributes.name);
  if (!moving) {
    const path = String(folder.meta.path);
    const next = changedRecord(
      folders,
      folder,
      {
        attributes: data.attributes ?? {},
        rels,
        meta: { path: `${path.slice(0, path.lastIndexOf('/'))}/${name}` },
      },
      now,
    );
    const { parent: _p, ...checked } = rels;
    return replaceRecord(scope, folders, { replace: next, was: folder }, checked);
  }
  const parent = await parentOf(scope, folder.org_id, rels.parent);
  const from = folder.gsi1sk ?? folder.id;
  if (parent && `${parent.gsi1sk}/`.startsWith(`${from}/`)) {
    throw new ConflictError('A folder cannot move into itself or its own subfolders.', {
      pointer: '/data/relationships/parent',
    });
  }
  const to = parent ? `${parent.gsi1sk}/${folder.id}` : folder.id;
  const path = pathIn(parent, name);
  const { parent_counted: _counted, ...changed } = changedRecord(
    folders,
    folder,
    { attributes: data.attributes ?? {}, rels, meta: { path } },
    now,
  );
  const next: StoredResource = { ...changed, gsi1sk: to, ...(parent && { parent_counted: true }) };
  const left = countedParent(folder);
  const [subtree, totals] = await Promise.all([folderSubtree(folder), totalsOf(folder)]);
  const paths = pathsBeneath(folder, path, subtree);
  const moved = (f: StoredResource): StoredResource => ({
    ...f,
    version: f.version + 1,
    gsi1sk: `${to}${(f.gsi1sk ?? '').slice(from.length)}`,
    meta: { ...f.meta, path: paths.get(f.id) },
  });
  const { documents: count, bytes } = totals;
  const ops: WriteOp[] = [
    { replace: next, was: folder },
    ...subtree.filter((f) => f.id !== folder.id).map((f) => ({ replace: moved(f), was: f })),
    ...(parent ? [parentUnchanged(parent), subfolderMove(folder.org_id, parent.id, 1)] : []),
    ...(left ? [subfolderMove(folder.org_id, left, -1)] : []),
    // The subtree's totals leave the old ancestors and join the new ones, as read.
    ...tallyMoves(folder.org_id, folderLineage(folder).slice(0, -1), { documents: -count, bytes: -bytes }),
    ...(parent ? tallyMoves(folder.org_id, folderLineage(parent), { documents: count, bytes }) : []),
    totals.unchanged,
  ];
  if (transactionSize(ops) > TRANSACTION_MAX) {
    throw new ConflictError(
      `Moving ${subtree.length - 1} subfolders at once is more than one step holds; move some of them first.`,
    );
  }
  await commitChecked(scope, ops, []);
  return next;
};

/**
 * Deletes a folder. With anything in it (subfolders or documents) it is 409 unless `recursive`, which
 * deletes the subtree, its documents and their versions in one transaction, then their files.
 *
 * The documents are read from the index (which may lag), and one may be created in, or moved into, a
 * subtree folder after they were read: deleting the folders then would leave it orphaned. So the
 * transaction requires each subtree folder's count of documents (`counterKey(<folder>#documents)`, moved
 * by every create, delete and move of a document in the document's own transaction) to stand at the
 * number read: a document filed in between (or not yet indexed) makes it 409 and nothing is deleted; a
 * document filed after it finds its folder gone (its create and move require the folder). Subfolders
 * likewise: each subtree folder's count of subfolders (`subfolderCountKey`, moved by every folder create,
 * move and delete) must stand at the counted subfolders read beneath it, so one made or moved in between
 * makes it 409, and one made or moved in after it finds its parent gone (both require the parent as read).
 * Folders filed before that count was kept are in no count and expected in none: a tree of them deletes
 * as before, unguarded against a subfolder made under it meanwhile, but never refused for want of a count.
 */
export const deleteFolder = async (scope: Scope, folder: StoredResource, recursive: boolean) => {
  const subtree = await folderSubtree(folder);
  const filed = await Promise.all(
    subtree.map(async (f) => ({
      counter: counterKey(f.org_id, childIndexKey(f, documents.type)),
      docs: await readIndex(scope, childIndexKey(f, documents.type)),
    })),
  );
  const docs = filed.flatMap((f) => f.docs);
  if (!recursive && (subtree.length > 1 || docs.length > 0)) {
    throw new ConflictError(
      `The folder holds ${subtree.length - 1} subfolders and ${docs.length} documents; delete with ?recursive=true to delete them too.`,
    );
  }
  // The totals are read after the documents: a document changed since is refused at its own delete,
  // and one changed before is in the totals.
  const [versions, totals] = await Promise.all([
    Promise.all(docs.map((d) => readIndex(scope, childIndexKey(d, documentVersions.type)))).then((v) =>
      v.flat(),
    ),
    totalsOf(folder),
  ]);
  const ops: WriteOp[] = [
    ...subtree.flatMap((f): WriteOp[] => [{ delete: f }, { remove: folderTallyKey(f.org_id, f.id) }]),
    ...docs.map((d) => ({ delete: d })),
    ...filed.map(({ counter, docs }): WriteOp => ({ count: { key: counter, by: 0, expect: docs.length } })),
    ...subtree.map(
      (f): WriteOp => ({
        count: {
          key: subfolderCountKey(f.org_id, f.id),
          by: 0,
          expect: subtree.filter((sub) => countedParent(sub) === f.id).length,
        },
      }),
    ),
    // Each counted folder leaves its parent's count: the folder's own parent's, and those deleted with it.
    ...subtree.flatMap((f): WriteOp[] => {
      const parent = countedParent(f);
      return parent ? [subfolderMove(f.org_id, parent, -1)] : [];
    }),
    ...versions.map((v) => ({ delete: v })),
    ...tallyMoves(folder.org_id, folderLineage(folder).slice(0, -1), {
      documents: -totals.documents,
      bytes: -totals.bytes,
    }),
  ];
  if (transactionSize(ops) > TRANSACTION_MAX) {
    throw new ConflictError('Too much to delete in one step; delete some subfolders or documents first.');
  }
  await commitChecked(scope, ops, [], () => {
    throw new ConflictError(
      'What the folder holds changed while it was being deleted (a subfolder or document was added, moved or changed); nothing was deleted: read it again and retry.',
    );
  });
  await deleteObjects(config.DOCUMENTS_BUCKET, versions.flatMap(versionFiles));
};
