/**
 * Webhook signing secrets at rest (`sealed-secrets.ts`): the service signs every delivery with them, so
 * they are encrypted, under their own key, bound to their subscription. In AWS the API function may only
 * Encrypt; the delivery functions only Decrypt.
 */
import { config } from '../config';
import { sealedSecrets } from './sealed-secrets';

/** Whose secret it is: a ciphertext decrypts only for the same organisation and subscription. */
export interface SecretOwner {
  org_id: string;
  subscription_id: string;
}

const webhookSecrets = sealedSecrets({
  kmsKeyId: () => config.WEBHOOK_SECRETS_KEY_ID,
  localKeyFile: () => config.LOCAL_WEBHOOK_SECRETS_KEY_FILE,
  names: ['WEBHOOK_SECRETS_KEY_ID', 'LOCAL_WEBHOOK_SECRETS_KEY_FILE'],
});

const context = (owner: SecretOwner) => ({ org_id: owner.org_id, subscription_id: owner.subscription_id });

export const encryptSecret = (secret: string, owner: SecretOwner): Promise<string> =>
  webhookSecrets.seal(secret, context(owner));

export const decryptSecret = (stored: string, owner: SecretOwner): Promise<string> =>
  webhookSecrets.open(stored, context(owner));
