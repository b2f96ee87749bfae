/**
 * A version's one move, `complete` (pending → available): its work is S3's copy of the upload, checked
 * against the declared size, type and checksum (only that copy is served); its writes make it the document's
 * current version and move the tallies of the document's folder and its ancestors by the difference, in the
 * move's transaction. Its route answers the document (`answers`), as it did before the move was declared.
 * Loaded when a move runs, so the declaration (`definitions.ts`) names it without importing these writes.
 */
import { config } from '#shared/config';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { UPLOADS_PREFIX } from '#shared/data/table-definition';
import type { MoveContext, MoveWork, MoveWrites } from '#shared/engine/lifecycle';
import { changedRecord } from '#shared/engine/record-writes';
import { readInScope } from '#shared/engine/single';
import { acceptUpload, declaredFile } from '#shared/engine/uploads';
import { documentMoves, documents, folders } from '../definitions';

/** Where a version's file is uploaded to; only the accepted copy (`object_key`) is ever served. */
export const uploadKey = (version: StoredResource) =>
  `${UPLOADS_PREFIX}${version.org_id}/${String(version.rels.document)}/${version.id}`;

/** The upload copied to `<org>/<document>/<version>/<copy id>` and checked; the copy goes if the move does not. */
export const acceptVersion = async (_scope: Scope, version: StoredResource): Promise<MoveWork> => {
  const accepted = await acceptUpload(
    config.DOCUMENTS_BUCKET,
    uploadKey(version),
    `${version.org_id}/${String(version.rels.document)}/${version.id}`,
    declaredFile(version.attributes),
  );
  // Another completion that wins keeps its copy, not this one, as the accepted file.
  return { stored: { object_key: accepted.key }, undo: accepted.discard };
};

/**
 * The document naming the version current, with the file the copy proved (the declared one: `acceptVersion`
 * refuses any other), and its folders' tallies moved: a first current version counts the document.
 */
export const versionCompleted = async (
  version: StoredResource,
  _before: StoredResource,
  { now }: MoveContext,
  scope: Scope,
): Promise<MoveWrites> => {
  const document = await readInScope(scope, documents, String(version.rels.document));
  const folder = await readInScope(scope, folders, String(document.rels.folder));
  const file = declaredFile(version.attributes);
  const previous = document.rels.current_version ? Number(document.attributes.size ?? 0) : null;
  const next = changedRecord(
    documents,
    document,
    {
      attributes: {
        status: 'available',
        content_type: file.contentType,
        size: file.bytes,
        checksum: file.sha256,
      },
      rels: { current_version: version.id },
    },
    now,
  );
  return {
    ops: [
      { replace: next, was: document },
      ...documentMoves(folder, { documents: previous === null ? 1 : 0, bytes: file.bytes - (previous ?? 0) }),
    ],
    answer: next,
  };
};
