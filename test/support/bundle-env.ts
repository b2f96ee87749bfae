/**
 * The environment a bundled area function gets from the stack, for running it in a fresh process here
 * (test/infra/area-bundles.test.ts, the bench's start-up part): DynamoDB at a closed port, so nothing
 * waits on a network.
 */
export const bundleEnv = {
  PATH: process.env.PATH ?? '',
  STAGE: 'dev',
  TABLE_NAME: 'table',
  DEVICE_BACKUPS_BUCKET: 'backups',
  EXPORTS_BUCKET: 'exports',
  DOCUMENTS_BUCKET: 'documents',
  TOKEN_ISSUER: 'https://api.example',
  TOKEN_AUDIENCE: 'compliance-api:dev',
  AWS_REGION: 'eu-west-2',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  AWS_MAX_ATTEMPTS: '1',
  DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
  NODE_NO_WARNINGS: '1',
};
