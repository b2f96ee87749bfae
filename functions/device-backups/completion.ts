/**
 * A backup's one move, `complete` (uploading → available): its work is S3's copy of the upload, checked
 * against the declared size, type and checksum; only that copy is served. Loaded when the move is made, so
 * the declaration (`definitions.ts`) every function reads names it without the S3 machinery; apart from
 * `writes.ts`, which imports the declaration, so it imports nothing that imports the declaration back.
 */
import { config } from '#shared/config';
import type { StoredResource } from '#shared/data/stored-resource';
import { UPLOADS_PREFIX } from '#shared/data/table-definition';
import type { MoveWork } from '#shared/engine/lifecycle';
import { acceptUpload, declaredFile } from '#shared/engine/uploads';

/** Where a backup's file is uploaded to; only the accepted copy (`object_key`) is ever served. */
export const uploadKey = (backup: StoredResource) => `${UPLOADS_PREFIX}${backup.org_id}/${backup.id}`;

/** The upload copied to `<org>/<backup>/<copy id>` and checked; the copy goes if the move is refused. */
export const acceptBackup = async (_scope: unknown, backup: StoredResource): Promise<MoveWork> => {
  const accepted = await acceptUpload(
    config.DEVICE_BACKUPS_BUCKET,
    uploadKey(backup),
    `${backup.org_id}/${backup.id}`,
    declaredFile(backup.attributes),
  );
  // Another completion that wins keeps its copy, not this one, as the accepted file.
  return { stored: { object_key: accepted.key }, undo: accepted.discard };
};
