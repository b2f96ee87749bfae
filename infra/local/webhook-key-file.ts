import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The local stand-in for the webhook secrets KMS key: 32 random bytes (base64), readable only by its owner. */
export const ensureWebhookKeyFile = (file: string): string => {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  }
  return file;
};
