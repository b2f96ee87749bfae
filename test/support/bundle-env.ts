/**
 * The environment a bundled area function gets from the stack, for running it in a fresh process here
 * (test/infra/area-bundles.test.ts, the bench's start-up part): DynamoDB at a closed port, so nothing
 * waits on a network.
 */
import { execFileSync } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { config } from '#shared/config';
import { localDatabaseKey } from '../../infra/local/clients';

export const bundleEnv = {
  PATH: process.env.PATH ?? '',
  STAGE: 'dev',
  TABLE_NAME: 'table',
  DEVICE_BACKUPS_BUCKET: 'backups',
  EXPORTS_BUCKET: 'exports',
  DOCUMENTS_BUCKET: 'documents',
  IMAGES_BUCKET: 'images',
  TOKEN_ISSUER: 'https://api.example',
  TOKEN_AUDIENCE: 'compliance-api:dev',
  AWS_REGION: 'eu-west-2',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  AWS_MAX_ATTEMPTS: '1',
  DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
  NODE_NO_WARNINGS: '1',
};

/**
 * The environment the stack gives an area function, on this process's DynamoDB Local and table, with the
 * token issuer's verification key as the stack ships it (the local key file is not there in AWS).
 */
export const liveFunctionEnv = (): NodeJS.ProcessEnv => {
  const { LOCAL_SIGNING_KEY_FILE: keyFile, ...env }: NodeJS.ProcessEnv = { ...process.env, ...bundleEnv };
  return {
    ...env,
    DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
    TABLE_NAME: config.TABLE_NAME,
    EVENT_FEED_SETTLE_SECONDS: String(config.EVENT_FEED_SETTLE_SECONDS),
    // DynamoDB Local keeps a database per access key: the service's local one.
    AWS_ACCESS_KEY_ID: localDatabaseKey(config.TABLE_NAME),
    TOKEN_ISSUER: config.TOKEN_ISSUER,
    TOKEN_AUDIENCE: config.TOKEN_AUDIENCE,
    TOKEN_VERIFICATION_KEYS: createPublicKey(readFileSync(keyFile ?? ''))
      .export({ type: 'spki', format: 'der' })
      .toString('base64'),
  };
};

/** Each API Gateway event handed to a built function's handler (`index.mjs`), in one cold process; its answers. */
export const invokeBuilt = (entry: string, events: object[]): { statusCode: number; body: string }[] => {
  const script = `const { handler } = await import(${JSON.stringify(entry)});
const answers = [];
for (const event of ${JSON.stringify(events)}) {
  const result = await handler(event, { awsRequestId: 'test', getRemainingTimeInMillis: () => 10000 });
  answers.push({ statusCode: result.statusCode, body: String(result.body) });
}
process.stdout.write('\\nANSWERS ' + JSON.stringify(answers));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: liveFunctionEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(stdout.slice(stdout.lastIndexOf('ANSWERS ') + 8));
};
