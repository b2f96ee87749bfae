/**
 * The S3 SDK and its one client, in a module of their own so that `files.ts` loads them on the first
 * call that touches S3: S3's client, presigner and multipart upload are about 160 KB of a bundle, which
 * every cold start of a files area paid before its first answer (documents, device backups and exports
 * started at 1.6× the bare handler; most of their answers, and every 401, never touch S3).
 */
import { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config';

export {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
export { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export const s3 = new S3Client({
  region: config.AWS_REGION,
  ...(config.S3_ENDPOINT && {
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: true,
    // s3rver accepts only its own fixed key pair.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  }),
});
