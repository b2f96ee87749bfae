/**
 * Webhook signing secrets at rest. The service signs every delivery with them, so they cannot be hashed
 * as client secrets are: they are encrypted, bound to their subscription (the KMS encryption context,
 * or the AES-GCM associated data), so a ciphertext copied onto another subscription does not decrypt.
 * In AWS a KMS symmetric key does it (the API function may only Encrypt; the delivery functions only
 * Decrypt); locally AES-256-GCM with a key in a file under .local/ (as `signing-key.ts` does for tokens).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { config } from '../config';

/** Whose secret it is: a ciphertext decrypts only for the same organisation and subscription. */
export interface SecretOwner {
  org_id: string;
  subscription_id: string;
}

const LOCAL = 'local1';
const KMS = 'kms1';

let kms: KMSClient | undefined;
const kmsClient = () => {
  kms ??= new KMSClient({ region: config.AWS_REGION });
  return kms;
};

let localKey: Buffer | undefined;
const readLocalKey = (): Buffer => {
  if (!config.LOCAL_WEBHOOK_SECRETS_KEY_FILE)
    throw new Error('Neither WEBHOOK_SECRETS_KEY_ID nor LOCAL_WEBHOOK_SECRETS_KEY_FILE is configured');
  localKey ??= Buffer.from(readFileSync(config.LOCAL_WEBHOOK_SECRETS_KEY_FILE, 'utf8').trim(), 'base64');
  if (localKey.length !== 32) throw new Error('The local webhook secrets key must be 32 bytes (base64)');
  return localKey;
};

const context = (owner: SecretOwner) => ({ org_id: owner.org_id, subscription_id: owner.subscription_id });
const associated = (owner: SecretOwner) => Buffer.from(JSON.stringify(context(owner)));

/** `<scheme>:<base64>`: the scheme says which key can read it. */
export const encryptSecret = async (secret: string, owner: SecretOwner): Promise<string> => {
  if (config.WEBHOOK_SECRETS_KEY_ID) {
    const out = await kmsClient().send(
      new EncryptCommand({
        KeyId: config.WEBHOOK_SECRETS_KEY_ID,
        Plaintext: Buffer.from(secret),
        EncryptionContext: context(owner),
      }),
    );
    if (!out.CiphertextBlob) throw new Error('KMS returned no ciphertext');
    return `${KMS}:${Buffer.from(out.CiphertextBlob).toString('base64')}`;
  }
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', readLocalKey(), iv).setAAD(associated(owner));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${LOCAL}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
};

export const decryptSecret = async (stored: string, owner: SecretOwner): Promise<string> => {
  const [scheme, body = ''] = stored.split(':', 2);
  const bytes = Buffer.from(body, 'base64');
  if (scheme === KMS) {
    const out = await kmsClient().send(
      new DecryptCommand({
        CiphertextBlob: bytes,
        EncryptionContext: context(owner),
        ...(config.WEBHOOK_SECRETS_KEY_ID && { KeyId: config.WEBHOOK_SECRETS_KEY_ID }),
      }),
    );
    if (!out.Plaintext) throw new Error('KMS returned no plaintext');
    return Buffer.from(out.Plaintext).toString('utf8');
  }
  if (scheme !== LOCAL) throw new Error('Unknown webhook secret encryption');
  const decipher = createDecipheriv('aes-256-gcm', readLocalKey(), bytes.subarray(0, 12))
    .setAAD(associated(owner))
    .setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
};
