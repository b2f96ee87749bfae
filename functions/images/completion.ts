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
import { IMAGE_ORIGINALS_PREFIX, IMAGE_VARIANTS_PREFIX, UPLOADS_PREFIX } from '#shared/data/table-definition';
import type { MoveWork } from '#shared/engine/lifecycle';
import { acceptUpload } from '#shared/engine/uploads';

type ImageKey = Pick<StoredResource, 'org_id' | 'id'>;

/** Where an image's original is uploaded to; only the accepted copy (`object_key`) is ever read. */
export const imageUploadKey = (image: ImageKey) => `${UPLOADS_PREFIX}${image.org_id}/${image.id}`;

/** Under which the accepted original is kept: `originals/<org>/<image>/<copy id>`, never expiring. */
export const originalPrefix = (image: ImageKey) => `${IMAGE_ORIGINALS_PREFIX}${image.org_id}/${image.id}`;

/** Under which an image's variants are written, one folder a render (regenerable from the original). */
export const variantsPrefix = (image: ImageKey) => `${IMAGE_VARIANTS_PREFIX}${image.org_id}/${image.id}`;

/** The declaration as S3 checks it. */
export const declaredImage = (image: StoredResource) => ({
  contentType: String(image.attributes.media_type),
  bytes: Number(image.attributes.size),
  sha256: String(image.attributes.sha256),
});

export const acceptOriginal = async (_scope: Scope, image: StoredResource): Promise<MoveWork> => {
  const accepted = await acceptUpload(
    config.IMAGES_BUCKET,
    imageUploadKey(image),
    originalPrefix(image),
    declaredImage(image),
  );
  return { stored: { object_key: accepted.key }, undo: accepted.discard };
};
