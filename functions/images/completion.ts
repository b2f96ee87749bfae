/**
 * An image's `complete` (pending_upload → processing, event `image.uploaded`): S3's copy of the upload, checked
 * against the declared size, media type and SHA-256, becomes the original. The copy is at a key no upload URL
 * names, so nothing a client PUTs afterwards changes it: that key is the pin, and the SHA-256 proves it. A
 * mismatch is a 409 and the image stays `pending_upload` with nothing written (the copy removed). The event
 * (and so the audit entry) carries the SHA-256 and the server's `received_at`.
 */
import { config } from '#shared/config';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { UPLOADS_PREFIX } from '#shared/data/table-definition';
import type { MoveWork } from '#shared/engine/lifecycle';
import { acceptUpload } from '#shared/engine/uploads';

/** Where an image's original is uploaded to; only the accepted copy (`object_key`) is ever read. */
export const imageUploadKey = (image: Pick<StoredResource, 'org_id' | 'id'>) =>
  `${UPLOADS_PREFIX}images/${image.org_id}/${image.id}`;

/** Under which the accepted original and the variants of an image are kept. */
export const imageObjectPrefix = (image: Pick<StoredResource, 'org_id' | 'id'>) =>
  `images/${image.org_id}/${image.id}`;

/** The declaration as S3 checks it. */
export const declaredImage = (image: StoredResource) => ({
  contentType: String(image.attributes.media_type),
  bytes: Number(image.attributes.size),
  sha256: String(image.attributes.sha256),
});

export const acceptOriginal = async (_scope: Scope, image: StoredResource): Promise<MoveWork> => {
  const accepted = await acceptUpload(
    config.DOCUMENTS_BUCKET,
    imageUploadKey(image),
    `${imageObjectPrefix(image)}/original`,
    declaredImage(image),
  );
  return { stored: { object_key: accepted.key }, undo: accepted.discard };
};
