/**
 * Documents and their versions. Every upload is a new version: the service records it as pending and
 * hands out a presigned PUT whose size, content type and SHA-256 are signed (S3 refuses anything else)
 * to `uploads/<org>/<document>/<version>`; the client then completes it, the version's declared move
 * (`versions/completion.ts`): the service copies the upload to `<org>/<document>/<version>/<copy id>`,
 * checks the copy against what was declared, and the version (naming that copy) becomes the document's
 * current one. Downloads are presigned GETs of the copy only,
 * so a later PUT through the upload URL changes nothing. The tallies of the document's folder and its
 * ancestors move in the same transaction.
 * The documents bucket has no expiry, except for `uploads/` (see bucketDefinitions).
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { config } from '#shared/config';
import { refiled } from '#shared/data/children';
import { deleteObjects, presignUpload } from '#shared/data/files';
import { idTime } from '#shared/data/ids';
import { readIndex } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { TRANSACTION_MAX, transactionSize, type WriteOp } from '#shared/data/transaction';
import { childIndexKey, fileChild } from '#shared/engine/children';
import { byPrincipal, changedRecord, commitChecked, newRecord } from '#shared/engine/record-writes';
import { readInScope } from '#shared/engine/single';
import { declaredFile, declaredUpload } from '#shared/engine/uploads';
import { requiredLine } from '#shared/jsonapi/attribute-types';
import { ConflictError } from '#shared/jsonapi/errors';
import { assertSameId, identifier, parseDocument } from '#shared/jsonapi/request-document';
import { documentMoves, documents, folders } from '../definitions';
import { uploadKey } from '../versions/completion';
import { documentVersions } from '../versions/definition';

/** A single presigned PUT carries at most 5 GiB. */
export const MAX_BYTES = 5 * 1024 ** 3;

/** The declared file's members; a function, so its schemas are built with the schema that uses them. */
const upload = () => declaredUpload(MAX_BYTES);

const newVersion = (
  document: StoredResource,
  number: number,
  declared: { content_type: string; size: number; checksum: string },
  principal: Principal | null | undefined,
  now: Date,
) => {
  const record = newRecord(
    documentVersions,
    document.org_id,
    {
      attributes: { number, status: 'pending', ...declared, uploaded_at: null },
      rels: { document: document.id, ...byPrincipal('author', principal) },
    },
    now,
  );
  return fileChild(document, record);
};

/** The version with its presigned upload in `meta.upload` (never stored). */
const withUpload = async (version: StoredResource) => ({
  ...version,
  meta: {
    ...version.meta,
    upload: await presignUpload(
      config.DOCUMENTS_BUCKET,
      uploadKey(version),
      declaredFile(version.attributes),
    ),
  },
});

export const createDocumentDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('documents'),
      attributes: z.strictObject({ name: requiredLine(255), ...upload() }),
    }),
  }),
);

/** A document in a folder, with its first version pending upload; answers the document with `meta.upload`. */
export const createDocument = async (
  scope: Scope,
  folder: StoredResource,
  body: unknown,
  principal: Principal | null,
  now = new Date(),
) => {
  const { data } = parseDocument(createDocumentDocument, body);
  const { name, ...declared } = data.attributes;
  const document = newRecord(
    documents,
    folder.org_id,
    {
      attributes: {
        name,
        status: 'pending',
        content_type: null,
        size: null,
        checksum: null,
        version_count: 1,
      },
      rels: { folder: folder.id, current_version: null, ...byPrincipal('author', principal) },
    },
    now,
  );
  const version = newVersion(document, 1, declared, principal, now);
  const filed = { ...fileChild(folder, document), latest_version: version.id };
  await commitChecked(
    scope,
    [{ create: filed }, { create: version }, { check: folders.keyOf(folder.org_id, folder.id) }],
    [],
  );
  const { meta } = await withUpload(version);
  return { ...filed, meta: { ...filed.meta, upload: { version: version.id, ...(meta.upload as object) } } };
};

export const createVersionDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({ type: z.literal('document-versions'), attributes: z.strictObject(upload()) }),
  }),
);

export const addVersion = async (
  scope: Scope,
  document: StoredResource,
  body: unknown,
  principal: Principal | null,
  now = new Date(),
) => {
  const { data } = parseDocument(createVersionDocument, body);
  const number = Number(document.attributes.version_count) + 1;
  // Versions list by number in their partition's key order (`childSorts`): the id of each, minted from its
  // time, sorts after the last one's, whichever clocks made them (the document's version check orders them).
  const at = Math.max(now.getTime(), document.latest_version ? idTime(document.latest_version) + 1 : 0);
  const version = newVersion(document, number, data.attributes, principal, new Date(at));
  const next = {
    ...changedRecord(documents, document, { attributes: { version_count: number } }, now),
    latest_version: version.id,
  };
  await commitChecked(scope, [{ create: version }, { replace: next, was: document }], []);
  return withUpload(version);
};

export const updateDocumentDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('documents'),
      id: z.uuid(),
      attributes: z
        .strictObject({ name: requiredLine(255) })
        .partial()
        .optional(),
      relationships: z
        .strictObject({ folder: z.strictObject({ data: identifier('folders') }) })
        .partial()
        .optional(),
    }),
  }),
);

/** Renames a document or moves it to another folder of the organisation (its counts move with it). */
export const updateDocument = async (
  scope: Scope,
  document: StoredResource,
  body: unknown,
  now = new Date(),
) => {
  const { data } = parseDocument(updateDocumentDocument, body);
  assertSameId(data.id, document.id);
  const to = data.relationships?.folder?.data.id;
  const moving = to !== undefined && to !== document.rels.folder;
  const counted = isCounted(document);
  const [folder, from] = moving
    ? await Promise.all([
        readInScope(scope, folders, to),
        counted ? readInScope(scope, folders, String(document.rels.folder)) : null,
      ])
    : [null, null];
  const next = changedRecord(
    documents,
    document,
    { attributes: data.attributes ?? {}, ...(folder && { rels: { folder: folder.id } }) },
    now,
  );
  const size = Number(document.attributes.size);
  // The folder moved into must still exist as the move commits (a document counted in its tallies also
  // requires it where it was read): a folder deleted in between would leave the document orphaned.
  const moveOps: WriteOp[] =
    folder && from
      ? [
          ...documentMoves(from, { documents: -1, bytes: -size }),
          ...documentMoves(folder, { documents: 1, bytes: size }),
        ]
      : folder
        ? [{ check: folders.keyOf(folder.org_id, folder.id) }]
        : [];
  const placed = folder ? fileChild(folder, next) : next;
  await commitChecked(
    scope,
    [{ replace: placed, was: document }, ...moveOps, ...refiled(document, placed)],
    [],
  );
  return placed;
};

/** Deletes a document, every version and their files; the folder's counts drop with it. */
export const deleteDocument = async (scope: Scope, document: StoredResource) => {
  const counted = isCounted(document);
  const [versions, folder] = await Promise.all([
    readIndex(scope, childIndexKey(document, documentVersions.type)),
    counted ? readInScope(scope, folders, String(document.rels.folder)) : null,
  ]);
  const ops: WriteOp[] = [
    { delete: document },
    ...versions.map((v): WriteOp => ({ delete: v })),
    ...(folder ? documentMoves(folder, { documents: -1, bytes: -Number(document.attributes.size) }) : []),
  ];
  if (transactionSize(ops) > TRANSACTION_MAX) throw new ConflictError('Too many versions to delete at once.');
  await commitChecked(scope, ops, []);
  await deleteObjects(config.DOCUMENTS_BUCKET, versions.flatMap(versionFiles));
};

/** A document counts in its folders' tallies once a version of it is current. */
const isCounted = (document: StoredResource) =>
  document.rels.current_version !== null && document.rels.current_version !== undefined;

/** Every key a version may have a file at: its upload and its accepted copy. */
export const versionFiles = (version: StoredResource): string[] => [
  uploadKey(version),
  ...(version.object_key ? [version.object_key] : []),
];
