/**
 * Starts the engines once for the whole API test run: DynamoDB Local, s3rver and the SES emulator, and a
 * signing key for tokens. The SES outbox lives in this process; test files (other processes) read it over
 * loopback HTTP (test/support/mailbox.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type Engine, startDynamoDbLocal, startS3rver, startSesLocal } from '../../infra/local/engines';
import { ensureKeyFile } from '../../infra/local/key-file';
import { ensureSigningKeyFile } from '../../infra/local/signing-key-file';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    s3Endpoint: string;
    sesEndpoint: string;
    signingKeyFile: string;
    webhookKeyFile: string;
    cursorKeyFile: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'api-tests-'));
  const [dynamo, s3, ses] = await Promise.all([startDynamoDbLocal(), startS3rver(), startSesLocal()]);
  const engines: Engine[] = [dynamo, s3, ses];
  project.provide('dynamodbEndpoint', dynamo.endpoint);
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('sesEndpoint', ses.endpoint);
  project.provide('signingKeyFile', ensureSigningKeyFile(join(dir, 'signing-key.pem')));
  project.provide('webhookKeyFile', ensureKeyFile(join(dir, 'webhook-secrets.key')));
  project.provide('cursorKeyFile', ensureKeyFile(join(dir, 'cursor.key')));
  return async () => {
    await Promise.all(engines.map((e) => e.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
}
