import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The local stand-in for a key AWS keeps (the webhook secrets KMS key, the cursor key's secret): 32
 * random bytes (base64) in a file readable only by its owner, made once and kept.
 */
export const ensureKeyFile = (file: string): string => {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  }
  return file;
};
