/**
 * Files in S3: large bodies never pass through Lambda. Clients upload with a presigned PUT whose size and
 * content type are part of the signature (S3 refuses anything else), and the service reads the object.
 */

import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config } from '../config';

const s3 = new S3Client({
  region: config.AWS_REGION,
  ...(config.S3_ENDPOINT && {
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: true,
    // s3rver accepts only its own fixed key pair.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  }),
});

export interface PresignedUpload {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expires_at: string;
}

/** A presigned PUT; with `sha256` (base64) S3 also refuses a body with another checksum. */
export const presignUpload = async (
  bucket: string,
  key: string,
  contentType: string,
  bytes: number,
  expiresInSeconds = 900,
  sha256?: string,
): Promise<PresignedUpload> => {
  const command = new PutObjectCommand({
    Bucket: bucket,
    Key: key,
    ContentType: contentType,
    ContentLength: bytes,
    ...(sha256 && { ChecksumSHA256: sha256 }),
  });
  const url = await getSignedUrl(s3, command, {
    expiresIn: expiresInSeconds,
    signableHeaders: new Set([
      'content-type',
      'content-length',
      ...(sha256 ? ['x-amz-checksum-sha256'] : []),
    ]),
  });
  return {
    url,
    method: 'PUT',
    headers: {
      'content-type': contentType,
      'content-length': String(bytes),
      ...(sha256 && { 'x-amz-checksum-sha256': sha256 }),
    },
    expires_at: new Date(Date.now() + expiresInSeconds * 1000).toISOString(),
  };
};

/** A presigned GET; the download is named `filename`. */
export const presignDownload = async (
  bucket: string,
  key: string,
  filename: string,
  expiresInSeconds = 300,
) =>
  getSignedUrl(
    s3,
    new GetObjectCommand({
      Bucket: bucket,
      Key: key,
      ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`,
    }),
    { expiresIn: expiresInSeconds },
  );

/** What was uploaded at `key` (size and content type), or null when nothing was. */
export const headObject = async (bucket: string, key: string) => {
  try {
    const out = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return { bytes: out.ContentLength ?? 0, contentType: out.ContentType ?? '' };
  } catch (error) {
    if ((error as { name?: string }).name === 'NotFound') return null;
    throw error;
  }
};

/** SHA-256 (base64) and size of what is stored at `key`, streamed; null when nothing is. */
export const digestObject = async (bucket: string, key: string) => {
  try {
    const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of out.Body as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      bytes += chunk.length;
    }
    return { sha256: hash.digest('base64'), bytes };
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return null;
    throw error;
  }
};

/** Streams `body` into `key` as a multipart upload: memory stays at a few 5 MiB parts, whatever the size. */
export const uploadStream = async (bucket: string, key: string, contentType: string, body: Readable) => {
  await new Upload({
    client: s3,
    params: { Bucket: bucket, Key: key, ContentType: contentType, Body: body },
    queueSize: 2,
  }).done();
};

/** Removes objects (after their records are gone); missing keys are not an error. */
export const deleteObjects = async (bucket: string, keys: readonly string[]) => {
  for (let i = 0; i < keys.length; i += 1000) {
    await s3.send(
      new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
      }),
    );
  }
};

/** The object's text, or null when nothing has been uploaded there. */
export const readObjectText = async (bucket: string, key: string): Promise<string | null> => {
  try {
    const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return (await out.Body?.transformToString('utf8')) ?? null;
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return null;
    throw error;
  }
};
