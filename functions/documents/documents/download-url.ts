/**
 * A download's address. Apart from the document writes so that a download's first request loads no zod.
 */
import { config } from '#shared/config';
import { presignDownload } from '#shared/data/files';
import type { StoredResource } from '#shared/data/stored-resource';
import { ConflictError } from '#shared/jsonapi/errors';

/** A presigned GET for an available version (the current one when `version` is the document's). */
export const downloadUrl = async (document: StoredResource, version: StoredResource) => {
  if (version.attributes.status !== 'available' || !version.object_key)
    throw new ConflictError('This version has not been uploaded yet.');
  return presignDownload(config.DOCUMENTS_BUCKET, version.object_key, String(document.attributes.name));
};
