/**
 * Where an image's bytes are fetched from: short-lived presigned GETs of the original (pinned at `complete`)
 * and of the three fixed variants. Only the named variants exist: no size can be asked for, so no request
 * can make the service render (imgproxy's and Thumbor's lesson on unsigned transformation URLs).
 */
import { config } from '#shared/config';
import { presignDownload } from '#shared/data/files';
import type { StoredResource } from '#shared/data/stored-resource';
import { ConflictError, NotFoundError } from '#shared/jsonapi/errors';
import { VARIANT_NAMES } from './definitions';

/** A signed address lives this long: enough to start a download, too short to pass around. */
const SIGNED_SECONDS = 300;

const stem = (filename: string) => filename.replace(/\.[^.]*$/, '') || 'image';

export const originalUrl = (image: StoredResource) => {
  if (typeof image.object_key !== 'string')
    throw new ConflictError('Nothing has been uploaded for this image yet: PUT the file, then complete it.');
  return presignDownload(
    config.IMAGES_BUCKET,
    image.object_key,
    String(image.attributes.filename),
    SIGNED_SECONDS,
  );
};

export const variantUrl = (image: StoredResource, name: string) => {
  if (!(VARIANT_NAMES as readonly string[]).includes(name))
    throw new NotFoundError(`No variant ${name}: an image's variants are thumb, medium and large.`);
  const key = image.variant_keys?.[name];
  if (image.attributes.variants_status !== 'ready' || typeof key !== 'string') {
    const why = image.attributes.variants_reason ? ` (${String(image.attributes.variants_reason)})` : '';
    throw new ConflictError(
      `This image's variants are not ready: its status is ${String(image.attributes.status)}, its variants ${String(image.attributes.variants_status)}${why}.`,
    );
  }
  return presignDownload(
    config.IMAGES_BUCKET,
    key,
    `${stem(String(image.attributes.filename))}-${name}.jpg`,
    SIGNED_SECONDS,
  );
};
