/**
 * The settings `seedRoutes` needs (see seed-routes.ts), for a process to set before any project module
 * loads (the configuration is read once): the three buckets (created here on s3rver), the API's port
 * reserved in advance (the service account's token is verified at `TOKEN_ISSUER`, so the API must listen
 * there), signing and webhook keys under `dir`, a loopback port for the job workers, webhooks to loopback,
 * and street-works references starting `NWSW` routed to an organisation the seeder creates.
 */
import { join } from 'node:path';
import { localS3Client } from '../../infra/local/clients';
import { freePort } from '../../infra/local/engines';
import { ensureKeyFile } from '../../infra/local/key-file';
import { createBuckets } from '../../infra/local/provision';
import { ensureSigningKeyFile } from '../../infra/local/signing-key-file';

export const seedEnvironment = async (dir: string, s3Endpoint: string) => {
  const buckets = {
    DEVICE_BACKUPS_BUCKET: 'seed-device-backups',
    EXPORTS_BUCKET: 'seed-exports',
    DOCUMENTS_BUCKET: 'seed-documents',
    IMAGES_BUCKET: 'seed-images',
  };
  await createBuckets(localS3Client(s3Endpoint), Object.values(buckets));
  const apiPort = await freePort();
  return {
    /** The port to start the API on (`startLocalApi(apiPort)`). */
    apiPort,
    env: {
      S3_ENDPOINT: s3Endpoint,
      ...buckets,
      TOKEN_ISSUER: `http://127.0.0.1:${apiPort}`,
      LOCAL_SIGNING_KEY_FILE: ensureSigningKeyFile(join(dir, 'signing-key.pem')),
      LOCAL_WEBHOOK_SECRETS_KEY_FILE: ensureKeyFile(join(dir, 'webhook-secrets.key')),
      LOCAL_SSO_CLIENT_SECRETS_KEY_FILE: ensureKeyFile(join(dir, 'sso-client-secrets.key')),
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      LAMBDA_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
      STREET_WORKS_ORGANISATIONS: 'NWSW=01960000-0000-7000-8000-00000000beef',
    },
  };
};
