/**
 * A backup's one move, `complete` (uploading → available): only the device that created it completes it,
 * and the move's work is S3's copy of the upload, checked against the declared size, type and checksum;
 * only that copy is served. Apart from `writes.ts` so the declaration (`definitions.ts`) names it without
 * importing the writes that import the declaration.
 */
import { config } from '#shared/config';
import type { StoredResource } from '#shared/data/stored-resource';
import { UPLOADS_PREFIX } from '#shared/data/table-definition';
import type { MoveWork, PartyRule } from '#shared/engine/lifecycle';

/** Where a backup's file is uploaded to; only the accepted copy (`object_key`) is ever served. */
export const uploadKey = (backup: StoredResource) => `${UPLOADS_PREFIX}${backup.org_id}/${backup.id}`;

/** Four eyes do not apply: the party is the uploader itself, the one that knows the file is whole. */
export const theUploader: PartyRule = (backup, principal) =>
  (backup.rels.uploaded_by_user ?? backup.rels.uploaded_by_service_account) === principal.id
    ? null
    : 'Only the device that created the backup completes it.';

/**
 * The upload copied to `<org>/<backup>/<copy id>` and checked; the copy goes if the move is refused. The
 * S3 machinery loads with the move: every function reads the declaration naming this.
 */
export const acceptBackup = async (_scope: unknown, backup: StoredResource): Promise<MoveWork> => {
  const { acceptUpload, declaredFile } = await import('#shared/engine/uploads');
  const accepted = await acceptUpload(
    config.DEVICE_BACKUPS_BUCKET,
    uploadKey(backup),
    `${backup.org_id}/${backup.id}`,
    declaredFile(backup.attributes),
  );
  // Another completion that wins keeps its copy, not this one, as the accepted file.
  return { stored: { object_key: accepted.key }, undo: accepted.discard };
};
