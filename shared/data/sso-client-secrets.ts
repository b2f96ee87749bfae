/**
 * SSO providers' client secrets at rest (`sealed-secrets.ts`): the callback authenticates to the
 * provider's token endpoint with them, so they are encrypted, under a key of their own (not the webhook
 * key: who may read one kind says nothing of the other), bound to their provider. In AWS the functions
 * that set them (IAM) may only Encrypt; the one that signs people in (auth) only Decrypt.
 */
import { config } from '../config';
import { sealedSecrets } from './sealed-secrets';

/** Whose secret it is: a ciphertext decrypts only for the same organisation and provider. */
export interface ClientSecretOwner {
  org_id: string;
  sso_provider_id: string;
}

const clientSecrets = sealedSecrets({
  kmsKeyId: () => config.SSO_CLIENT_SECRETS_KEY_ID,
  localKeyFile: () => config.LOCAL_SSO_CLIENT_SECRETS_KEY_FILE,
  names: ['SSO_CLIENT_SECRETS_KEY_ID', 'LOCAL_SSO_CLIENT_SECRETS_KEY_FILE'],
});

const context = (owner: ClientSecretOwner) => ({
  org_id: owner.org_id,
  sso_provider_id: owner.sso_provider_id,
});

export const sealClientSecret = (secret: string, owner: ClientSecretOwner): Promise<string> =>
  clientSecrets.seal(secret, context(owner));

export const openClientSecret = (stored: string, owner: ClientSecretOwner): Promise<string> =>
  clientSecrets.open(stored, context(owner));
