/**
 * Files in S3: large bodies never pass through Lambda. Clients upload with a presigned PUT whose size and
 * content type are part of the signature (S3 refuses anything else), and the service reads the object.
 */
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
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

export const presignUpload = async (
  bucket: string,
  key: string,
  contentType: string,
  bytes: number,
  expiresInSeconds = 900,
): Promise<PresignedUpload> => {
  const command = new PutObjectCommand({
    Bucket: bucket,
    Key: key,
    ContentType: contentType,
    ContentLength: bytes,
  });
  const url = await getSignedUrl(s3, command, {
    expiresIn: expiresInSeconds,
    signableHeaders: new Set(['content-type', 'content-length']),
  });
  return {
    url,
    method: 'PUT',
    headers: { 'content-type': contentType, 'content-length': String(bytes) },
    expires_at: new Date(Date.now() + expiresInSeconds * 1000).toISOString(),
  };
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
