/**
 * Files clients upload, declared the same way wherever they go (documents, device backups, location
 * imports): size, media type and the base64 SHA-256, all three signed into the presigned PUT. Completion
 * accepts what was uploaded only as a copy at a key no upload URL names, and only if the copy is exactly
 * what was declared; the record then names that copy, so nothing a client PUTs later can change it.
 */
import * as z from 'zod';
import { copyUpload, type DeclaredFile, deleteObjects, type StoredFile } from '../data/files';
import { ConflictError } from '../jsonapi/errors';

const CHECKSUM_RULE =
  'checksum must be the SHA-256 of the file, base64-encoded: 44 characters ending in "=" (openssl dgst -sha256 -binary FILE | base64)';

/**
 * A base64 SHA-256 (32 bytes: 43 characters, the last carrying 2 padding bits, then "="), canonical so it
 * compares equal to the checksum S3 reports.
 */
export const checksum = z.lazy(() =>
  z.string({ error: CHECKSUM_RULE }).regex(/^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/, {
    error: CHECKSUM_RULE,
  }),
);

export const mediaType = z.lazy(() =>
  z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/i, 'content_type must be a media type such as application/pdf'),
);

/** The members a client declares its file with, as a zod shape. */
export const declaredUpload = (maxBytes: number) => ({
  content_type: mediaType,
  size: z.number().int().min(1).max(maxBytes),
  checksum,
});

/** The declaration as stored on a record (`content_type`, `size`, `checksum` attributes). */
export const declaredFile = (attributes: Record<string, unknown>): DeclaredFile => ({
  contentType: String(attributes.content_type),
  bytes: Number(attributes.size),
  sha256: String(attributes.checksum),
});

const described = (file: StoredFile | DeclaredFile) =>
  `${file.bytes} bytes of ${file.contentType}, SHA-256 ${file.sha256}`;

/**
 * Accepts the upload at `from` as a copy under `into`: 409 when nothing has been uploaded, or when the
 * copy is not exactly the declared file (the copy is removed; the client may PUT again and retry).
 * Answers the copy's key, which the caller stores; if its own write then fails it calls `discard`.
 */
export const acceptUpload = async (bucket: string, from: string, into: string, declared: DeclaredFile) => {
  const accepted = await copyUpload(bucket, from, into);
  if (!accepted) {
    throw new ConflictError('Nothing has been uploaded yet: PUT the file to meta.upload.url first.');
  }
  const { key, stored } = accepted;
  if (
    stored.bytes !== declared.bytes ||
    stored.contentType !== declared.contentType ||
    stored.sha256 !== declared.sha256
  ) {
    await deleteObjects(bucket, [key]);
    throw new ConflictError(
      `The upload (${described(stored)}) is not what was declared (${described(declared)}): PUT the declared file to meta.upload.url again.`,
    );
  }
  return { key, stored, discard: () => deleteObjects(bucket, [key]) };
};
