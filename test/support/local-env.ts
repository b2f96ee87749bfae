/**
 * Runs in each API test file's worker before the file: gives the file its own table and buckets on the
 * shared engines, and reserves the port its API will listen on (the tokens' issuer). Configuration is
 * read when the first project module loads, so this must run before any of them is imported.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { localDynamoDbClient, localS3Client } from '../../infra/local/clients';
import { freePort } from '../../infra/local/engines';
import { createBuckets, createTable } from '../../infra/local/provision';
import { STREET_WORKS_ORGS, STREET_WORKS_TOPICS } from './street-works-config';

const suffix = randomBytes(6).toString('hex');
const env = {
  STAGE: 'test',
  LOG_LEVEL: 'warn',
  GRANT_CACHE_SECONDS: '0',
  // Tests make thousands of requests a minute as one client; the budgets' own test sets small ones
  // (test/support/small-budgets.ts).
  REQUESTS_PER_MINUTE_ORGANISATION: '1000000',
  REQUESTS_PER_MINUTE_CLIENT: '1000000',
  // Tests read the change feed right after their writes, one at a time.
  EVENT_FEED_SETTLE_SECONDS: '1',
  DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
  S3_ENDPOINT: inject('s3Endpoint'),
  SES_ENDPOINT: inject('sesEndpoint'),
  TABLE_NAME: `test-${suffix}`,
  DEVICE_BACKUPS_BUCKET: `device-backups-${suffix}`,
  EXPORTS_BUCKET: `exports-${suffix}`,
  DOCUMENTS_BUCKET: `documents-${suffix}`,
  IMAGES_BUCKET: `images-${suffix}`,
  TOKEN_ISSUER: `http://127.0.0.1:${await freePort()}`,
  TOKEN_AUDIENCE: 'compliance-api:test',
  LOCAL_SIGNING_KEY_FILE: inject('signingKeyFile'),
  LOCAL_WEBHOOK_SECRETS_KEY_FILE: inject('webhookKeyFile'),
  LOCAL_SSO_CLIENT_SECRETS_KEY_FILE: inject('ssoClientSecretsKeyFile'),
  LOCAL_CURSOR_KEY_FILE: inject('cursorKeyFile'),
  // Webhooks to the tests' own loopback receivers; a test that proves the refusal reads it as false.
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  // SSO: the local OpenID provider and the tests' own tampering token endpoints are http on loopback.
  SSO_ALLOW_LOOPBACK_HTTP: 'true',
  // Jobs: the loopback Lambda endpoint a test starts to run workers (infra/local/lambda-endpoint.ts); an
  // invocation hands a job on after 2 s and a dead worker's lease runs out after 3 s, so a test sees both.
  LAMBDA_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
  JOB_INVOCATION_SECONDS: '2',
  JOB_LEASE_SECONDS: '3',
  // Exports: over 1,000 rows a job, written in 64 KiB parts (s3rver takes parts S3 would refuse), so a
  // test's export of a few thousand rows has several parts and checkpoints.
  EXPORT_INLINE_ROWS: '1000',
  EXPORT_PART_KIB: '64',
  // Street works: a loopback certificate server and SNS endpoint (test/support/sns.ts), the topics a
  // test signs for, and references routed to two organisations whose ids are fixed for the tests.
  SNS_CERT_URL_BASE: `http://127.0.0.1:${await freePort()}/sns.{region}.{domain}`,
  SNS_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
  SNS_TOPIC_ARNS: [...STREET_WORKS_TOPICS].join(','),
  STREET_WORKS_ORGANISATIONS: Object.entries(STREET_WORKS_ORGS)
    .map(([prefix, org]) => `${prefix}=${org}`)
    .join(','),
};
Object.assign(process.env, env);

await createTable(localDynamoDbClient(env.DYNAMODB_ENDPOINT, env.TABLE_NAME), env.TABLE_NAME);
await createBuckets(localS3Client(env.S3_ENDPOINT), [
  env.DEVICE_BACKUPS_BUCKET,
  env.EXPORTS_BUCKET,
  env.DOCUMENTS_BUCKET,
  env.IMAGES_BUCKET,
]);
