/**
 * Files in S3: large bodies never pass through Lambda. Clients upload with a presigned PUT whose size,
 * content type and SHA-256 are part of the signature (S3 refuses anything else), to a key of its own;
 * completion copies what was uploaded to a key no upload URL names, checks the copy, and only that copy
 * is ever served. So a later PUT through the same, still valid URL changes nothing that was accepted,
 * whether or not the S3 engine enforces signed headers (s3rver enforces none) and whatever the URL's
 * expiry. Keys are built by callers from ids only.
 */

import { createHash, randomUUID } from 'node:crypto';
import { create as contentDisposition } from 'content-disposition';

/** The S3 SDK and client, loaded on first use (see s3.ts); the module cache keeps the one client. */
const sdk = () => import('./s3');

/** What a client declares before it uploads; all three are signed into the upload URL. */
export interface DeclaredFile {
  contentType: string;
  bytes: number;
  /** SHA-256 of the file, base64 (44 characters), as the client computed it. */
  sha256: string;
}

/** What S3 holds at a key. */
export interface StoredFile {
  contentType: string;
  bytes: number;
  sha256: string;
}

export interface PresignedUpload {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expires_at: string;
}

const SIGNED_UPLOAD_HEADERS = ['content-type', 'content-length', 'x-amz-checksum-sha256'] as const;

/**
 * A presigned PUT of exactly `file`. The checksum must travel as a signed header: left to itself the
 * presigner hoists `x-amz-checksum-sha256` into the query string, where S3 signs it and then ignores it
 * (aws-sdk-js-v3 #3906), so any bytes would be accepted.
 */
export const presignUpload = async (
  bucket: string,
  key: string,
  file: DeclaredFile,
  expiresInSeconds = 900,
): Promise<PresignedUpload> => {
  const { getSignedUrl, PutObjectCommand, s3 } = await sdk();
  const command = new PutObjectCommand({
    Bucket: bucket,
    Key: key,
    ContentType: file.contentType,
    ContentLength: file.bytes,
    ChecksumSHA256: file.sha256,
  });
  const url = await getSignedUrl(s3, command, {
    expiresIn: expiresInSeconds,
    signableHeaders: new Set(SIGNED_UPLOAD_HEADERS),
    unhoistableHeaders: new Set(['x-amz-checksum-sha256']),
  });
  return {
    url,
    method: 'PUT',
    headers: {
      'content-type': file.contentType,
      'content-length': String(file.bytes),
      'x-amz-checksum-sha256': file.sha256,
    },
    expires_at: new Date(Date.now() + expiresInSeconds * 1000).toISOString(),
  };
};

/**
 * A presigned GET; the download is named `filename`, which may be anything a user typed: RFC 6266
 * quoting and RFC 8187 encoding keep the header S3 sends printable ASCII, and lone UTF-16 surrogates
 * (which no encoding can carry) become U+FFFD first.
 */
export const presignDownload = async (
  bucket: string,
  key: string,
  filename: string,
  expiresInSeconds = 300,
) => {
  const { GetObjectCommand, getSignedUrl, s3 } = await sdk();
  return getSignedUrl(
    s3,
    new GetObjectCommand({
      Bucket: bucket,
      Key: key,
      ResponseContentDisposition: contentDisposition(filename.replace(/[\uD800-\uDFFF]/gu, '\uFFFD')),
    }),
    { expiresIn: expiresInSeconds },
  );
};

const isMissing = (error: unknown) =>
  ['NoSuchKey', 'NotFound'].includes((error as { name?: string }).name ?? '');

/** SHA-256 (base64) and size of the bytes of `body`, streamed. */
const digest = async (body: AsyncIterable<Uint8Array>) => {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of body) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('base64'), bytes };
};

/**
 * Copies the upload at `from` to a new key under `into` (`<into>/<random id>`, a key of this call's
 * own, so two completions racing never write the same object) and answers what the copy holds, or
 * null when nothing has been uploaded. S3 reports the copy's SHA-256 (it verified the signed checksum
 * on upload and keeps it through the copy); when it does not (s3rver keeps no checksums), the copy is
 * hashed here. What is answered is the copy's, never the upload key's, so nothing the client PUTs later
 * can change it.
 */
export const copyUpload = async (
  bucket: string,
  from: string,
  into: string,
): Promise<{ key: string; stored: StoredFile } | null> => {
  const { CopyObjectCommand, GetObjectCommand, HeadObjectCommand, s3 } = await sdk();
  const key = `${into}/${randomUUID()}`;
  try {
    await s3.send(
      new CopyObjectCommand({
        Bucket: bucket,
        Key: key,
        CopySource: `${bucket}/${from}`,
        ChecksumAlgorithm: 'SHA256',
      }),
    );
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key, ChecksumMode: 'ENABLED' }));
  const reported = head.ChecksumType !== 'COMPOSITE' ? head.ChecksumSHA256 : undefined;
  const sha256 =
    reported ??
    (
      await digest(
        (
          await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
        ).Body as AsyncIterable<Uint8Array>,
      )
    ).sha256;
  return { key, stored: { contentType: head.ContentType ?? '', bytes: head.ContentLength ?? 0, sha256 } };
};

/**
 * A file written part by part across invocations (an export job): S3's multipart upload, whose id and
 * parts so far a checkpoint keeps. Every part but the last must be at least 5 MiB. Writing a part number
 * again replaces it, so a part redone after a worker died is not doubled.
 */
export interface PartsUpload {
  key: string;
  upload_id: string;
  parts: { n: number; etag: string }[];
}

export const startParts = async (bucket: string, key: string, contentType: string): Promise<PartsUpload> => {
  const { CreateMultipartUploadCommand, s3 } = await sdk();
  const out = await s3.send(
    new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }),
  );
  return { key, upload_id: out.UploadId ?? '', parts: [] };
};

/** Writes the next part; the upload with it added. */
export const writePart = async (bucket: string, upload: PartsUpload, body: Buffer): Promise<PartsUpload> => {
  const { UploadPartCommand, s3 } = await sdk();
  const n = upload.parts.length + 1;
  const out = await s3.send(
    new UploadPartCommand({
      Bucket: bucket,
      Key: upload.key,
      UploadId: upload.upload_id,
      PartNumber: n,
      Body: body,
    }),
  );
  return { ...upload, parts: [...upload.parts, { n, etag: out.ETag ?? '' }] };
};

const isGone = (error: unknown) => (error as { name?: string }).name === 'NoSuchUpload';

/**
 * Writes the last part (when there is one) and joins the parts into the object; answers its size and
 * SHA-256, read back from S3 (a hash cannot be carried from one invocation to the next). An upload that
 * is gone was completed by a worker that died before it could say so: the object is there to read.
 */
export const finishParts = async (bucket: string, upload: PartsUpload, last: Buffer | null) => {
  const { CompleteMultipartUploadCommand, GetObjectCommand, s3 } = await sdk();
  try {
    const { parts } = last ? await writePart(bucket, upload, last) : upload;
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: upload.key,
        UploadId: upload.upload_id,
        MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.n, ETag: p.etag })) },
      }),
    );
  } catch (error) {
    if (!isGone(error)) throw error;
  }
  const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: upload.key }));
  return digest(out.Body as AsyncIterable<Uint8Array>);
};

/** Writes a small object whole (an inline import's file, kept for its job; a small export's file). */
export const putObject = async (bucket: string, key: string, contentType: string, body: string | Buffer) => {
  const { PutObjectCommand, s3 } = await sdk();
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: contentType, Body: body }));
};

/** Removes objects (after their records are gone); missing keys are not an error. */
export const deleteObjects = async (bucket: string, keys: readonly string[]) => {
  if (keys.length === 0) return;
  const { DeleteObjectsCommand, s3 } = await sdk();
  for (let i = 0; i < keys.length; i += 1000) {
    await s3.send(
      new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
      }),
    );
  }
};

/** The object's bytes, or null when nothing is there (an image's original, read by the image worker). */
export const readObjectBytes = async (bucket: string, key: string): Promise<Buffer | null> => {
  const { GetObjectCommand, s3 } = await sdk();
  try {
    const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return Buffer.from((await out.Body?.transformToByteArray()) ?? []);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
};

/** The object's text with the size and SHA-256 of its bytes, or null when nothing has been uploaded there. */
export const readObjectText = async (bucket: string, key: string) => {
  const { GetObjectCommand, s3 } = await sdk();
  try {
    const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const body = Buffer.from((await out.Body?.transformToByteArray()) ?? []);
    return {
      text: body.toString('utf8'),
      bytes: body.length,
      sha256: createHash('sha256').update(body).digest('base64'),
    };
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
};
