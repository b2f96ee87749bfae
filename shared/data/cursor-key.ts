/**
 * The key that seals collection cursors (see shared/jsonapi/cursor.ts). In AWS it is the value of a
 * Secrets Manager secret the stack generates, read once per container, on its first cursor; locally,
 * 32 random bytes (base64) in a file under .local/, as `webhook-secrets.ts` keeps its key.
 */
import { readFileSync } from 'node:fs';
import { config } from '../config';

const read = async (): Promise<Buffer> => {
  if (config.CURSOR_KEY_SECRET_ARN) {
    // Loaded on the first cursor, not at start-up: most requests page by offset or read one record.
    const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
    const client = new SecretsManagerClient({ region: config.AWS_REGION });
    const out = await client.send(new GetSecretValueCommand({ SecretId: config.CURSOR_KEY_SECRET_ARN }));
    if (!out.SecretString) throw new Error('The cursor key secret has no value');
    return Buffer.from(out.SecretString);
  }
  if (config.LOCAL_CURSOR_KEY_FILE) {
    return Buffer.from(readFileSync(config.LOCAL_CURSOR_KEY_FILE, 'utf8').trim(), 'base64');
  }
  throw new Error('Neither CURSOR_KEY_SECRET_ARN nor LOCAL_CURSOR_KEY_FILE is configured');
};

let loaded: Promise<Buffer> | undefined;

export const cursorKey = (): Promise<Buffer> => {
  loaded ??= read().catch((error: unknown) => {
    // A failed read (throttled, say) is tried again by the next request, not remembered.
    loaded = undefined;
    throw error;
  });
  return loaded;
};
