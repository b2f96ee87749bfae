/** SDK clients for the local engines, with fixed dummy credentials; they refuse any non-loopback endpoint. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';

const region = 'eu-west-2';

/** Tests and the local stack must never reach real AWS. */
export const assertLoopback = (endpoint: string): string => {
  const { hostname } = new URL(endpoint);
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(hostname)) {
    throw new Error(`Refusing to use ${endpoint}: local provisioning only talks to loopback engines.`);
  }
  return endpoint;
};

/**
 * DynamoDB Local keeps a database per access key (it runs without `-sharedDb`), and each table is given
 * one of its own: the key is the table's name (letters and digits only, as DynamoDB Local requires). The
 * service's own clients (`shared/data/clients.ts`) name the same key. In one shared database a table's
 * writes slow with every stream record the other tables wrote (measured: 1,017 writes/s for a first
 * table, then 154 and 129 for two more written after it; 1,836 and 2,087 with a database each), so the
 * last test files of a run wrote many times slower than the first.
 */
export const localDatabaseKey = (tableName: string) => tableName.replace(/[^A-Za-z0-9]/g, '');

export const localDynamoDbClient = (endpoint: string, tableName: string) =>
  new DynamoDBClient({
    endpoint: assertLoopback(endpoint),
    region,
    credentials: { accessKeyId: localDatabaseKey(tableName), secretAccessKey: 'local' },
  });

/** s3rver accepts signed requests only from its own fixed key pair. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export const localS3Client = (endpoint: string) =>
  new S3Client({
    endpoint: assertLoopback(endpoint),
    region,
    credentials: S3RVER_CREDENTIALS,
    forcePathStyle: true,
  });
