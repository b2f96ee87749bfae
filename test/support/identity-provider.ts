/**
 * The local OpenID provider from a test file's side. It runs in the global setup's process
 * (infra/local/identity-provider.ts), so a test adds its own accounts and registers its own clients over
 * the provider's loopback admin endpoint, and signs in with plain HTTP as a browser would.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import type { IdentityProviderAccount, IdentityProviderClient } from '../../infra/local/identity-provider';

export const oidcIssuer = inject('oidcIssuer');
/** The provider record's `metadata` as a URL. */
export const oidcDiscoveryUrl = `${oidcIssuer}/.well-known/openid-configuration`;

const admin = async (path: string, body: object) => {
  const response = await fetch(`${oidcIssuer}/admin/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
};

/** An account the provider signs in by its e-mail; `sub` is a fresh UUID unless given. */
export const addAccount = async (
  account: Omit<IdentityProviderAccount, 'sub'> & { sub?: string },
): Promise<IdentityProviderAccount> => {
  const added = { sub: randomUUID(), email_verified: true, ...account };
  await admin('accounts', added);
  return added;
};

/** A client of the provider (public without `client_secret`); its id is a fresh UUID unless given. */
export const registerClient = async (
  client: Omit<IdentityProviderClient, 'client_id'> & { client_id?: string },
): Promise<IdentityProviderClient & { client_id: string }> => {
  const registered = { client_id: randomUUID(), ...client };
  await admin('clients', registered);
  return registered;
};

export { loginAt } from './oidc-browser';
