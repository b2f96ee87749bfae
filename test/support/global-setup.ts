/**
 * Starts the engines once for the whole API test run: DynamoDB Local, s3rver, the SES emulator and the
 * OpenID provider, and a signing key for tokens. The SES outbox and the provider live in this process;
 * test files (other processes) read the outbox and add their own accounts and clients over loopback
 * HTTP (test/support/mailbox.ts, test/support/identity-provider.ts), so nothing is seeded here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type Engine, startDynamoDbLocal, startS3rver, startSesLocal } from '../../infra/local/engines';
import { startIdentityProvider } from '../../infra/local/identity-provider';
import { ensureKeyFile } from '../../infra/local/key-file';
import { ensureSigningKeyFile } from '../../infra/local/signing-key-file';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    s3Endpoint: string;
    sesEndpoint: string;
    oidcIssuer: string;
    signingKeyFile: string;
    webhookKeyFile: string;
    ssoClientSecretsKeyFile: string;
    cursorKeyFile: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'api-tests-'));
  const [dynamo, s3, ses, idp] = await Promise.all([
    startDynamoDbLocal(),
    startS3rver(),
    startSesLocal(),
    startIdentityProvider(),
  ]);
  const engines: Engine[] = [dynamo, s3, ses, idp];
  project.provide('dynamodbEndpoint', dynamo.endpoint);
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('sesEndpoint', ses.endpoint);
  project.provide('oidcIssuer', idp.issuer);
  project.provide('signingKeyFile', ensureSigningKeyFile(join(dir, 'signing-key.pem')));
  project.provide('webhookKeyFile', ensureKeyFile(join(dir, 'webhook-secrets.key')));
  project.provide('ssoClientSecretsKeyFile', ensureKeyFile(join(dir, 'sso-client-secrets.key')));
  project.provide('cursorKeyFile', ensureKeyFile(join(dir, 'cursor.key')));
  return async () => {
    await Promise.all(engines.map((e) => e.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
}
