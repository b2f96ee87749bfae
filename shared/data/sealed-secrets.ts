/**
 * Secrets the service must read back (it signs or authenticates with them, so they cannot be hashed as
 * client secrets are), kept encrypted at rest, each kind under a key of its own and bound to its owner:
 * the KMS encryption context, or the AES-GCM associated data, so a ciphertext copied onto another record
 * does not decrypt. In AWS a KMS symmetric key per kind (the functions that write secrets may only
 * Encrypt; only those that use them Decrypt); locally AES-256-GCM with a key in a file under .local/ (as
 * `signing-key.ts` does for tokens). Kinds: webhook signing secrets, SSO providers' client secrets.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { config } from '../config';

/** Whose secret it is: the names and ids a ciphertext is bound to. */
export type SecretOwner = Record<string, string>;

export interface SealedSecrets {
  /** `<scheme>:<base64>`: the scheme says which key can read it. */
  seal(secret: string, owner: SecretOwner): Promise<string>;
  open(stored: string, owner: SecretOwner): Promise<string>;
}

const LOCAL = 'local1';
const KMS = 'kms1';

let kms: KMSClient | undefined;
const kmsClient = () => {
  kms ??= new KMSClient({ region: config.AWS_REGION });
  return kms;
};

/** Its keys by their configuration's names: read lazily, since a function that never seals needs none. */
export const sealedSecrets = (keys: {
  kmsKeyId: () => string | undefined;
  localKeyFile: () => string | undefined;
  /** The two settings' names, for the error that neither is set. */
  names: readonly [string, string];
}): SealedSecrets => {
  let localKey: Buffer | undefined;
  const readLocalKey = (): Buffer => {
    const file = keys.localKeyFile();
    if (!file) throw new Error(`Neither ${keys.names[0]} nor ${keys.names[1]} is configured`);
    localKey ??= Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (localKey.length !== 32) throw new Error(`${keys.names[1]} must hold 32 bytes (base64)`);
    return localKey;
  };
  // Sorted, so the context is the same whatever order the owner's names were given in.
  const context = (owner: SecretOwner) => Object.fromEntries(Object.entries(owner).sort());
  const associated = (owner: SecretOwner) => Buffer.from(JSON.stringify(context(owner)));

  return {
    seal: async (secret, owner) => {
      const keyId = keys.kmsKeyId();
      if (keyId) {
        const out = await kmsClient().send(
          new EncryptCommand({
            KeyId: keyId,
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
    },
    open: async (stored, owner) => {
      const [scheme, body = ''] = stored.split(':', 2);
      const bytes = Buffer.from(body, 'base64');
      if (scheme === KMS) {
        const keyId = keys.kmsKeyId();
        const out = await kmsClient().send(
          new DecryptCommand({
            CiphertextBlob: bytes,
            EncryptionContext: context(owner),
            ...(keyId && { KeyId: keyId }),
          }),
        );
        if (!out.Plaintext) throw new Error('KMS returned no plaintext');
        return Buffer.from(out.Plaintext).toString('utf8');
      }
      if (scheme !== LOCAL) throw new Error('Unknown secret encryption');
      const decipher = createDecipheriv('aes-256-gcm', readLocalKey(), bytes.subarray(0, 12))
        .setAAD(associated(owner))
        .setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
};
