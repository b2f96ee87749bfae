/** SDK clients for the local engines, with fixed dummy credentials; they refuse any non-loopback endpoint. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const region = 'eu-west-2';

/** Tests and the local stack must never reach real AWS. */
export const assertLoopback = (endpoint: string): string => {
  const { hostname } = new URL(endpoint);
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(hostname)) {
    throw new Error(`Refusing to use ${endpoint}: local provisioning only talks to loopback engines.`);
  }
  return endpoint;
};

export const localDynamoDbClient = (endpoint: string) =>
  new DynamoDBClient({ endpoint: assertLoopback(endpoint), region, credentials });

/** s3rver accepts signed requests only from its own fixed key pair. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export const localS3Client = (endpoint: string) =>
  new S3Client({
    endpoint: assertLoopback(endpoint),
    region,
    credentials: S3RVER_CREDENTIALS,
    forcePathStyle: true,
  });
