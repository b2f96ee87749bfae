/**
 * A service account's keys as they are read: stored on the account, shown as resources. Apart from the
 * account writes (service-accounts.ts) so that a key's read loads no zod at its first request.
 */
import type { StoredResource } from '#shared/data/stored-resource';
import { routePath } from '#shared/http/links';
import type { CollectionOptions } from '#shared/jsonapi/collection-query';

export interface StoredKey {
  id: string;
  /** Never the secret: a mask ending in its last four characters, so people can tell keys apart. */
  client_secret: string;
  enabled: boolean;
  created_at: string;
}

export const keysOf = (account: StoredResource): StoredKey[] =>
  (account.attributes.keys as StoredKey[] | undefined) ?? [];

/** The keys collection's query features, over the resource objects `keyResource` builds. */
export const keyOptions = {
  filters: { enabled: { kind: 'eq', path: 'attributes.enabled', type: 'boolean' } },
  sorts: { created_at: { path: 'attributes.created_at' } },
  defaultSort: 'created_at',
  includes: [],
} as const satisfies CollectionOptions;

export const findKey = (account: StoredResource, keyId: string): StoredKey | undefined =>
  keysOf(account).find((k) => k.id === keyId);

/** A key as a JSON:API resource; the secret appears only in the answer to its creation. */
export const keyResource = (
  account: StoredResource,
  key: StoredKey,
  baseUrl: string,
  clientSecret?: string,
) => ({
  type: 'service-account-keys',
  id: key.id,
  attributes: {
    client_id: key.id,
    client_secret: clientSecret ?? key.client_secret,
    enabled: key.enabled,
    created_at: key.created_at,
  },
  meta: { secret_shown_once: clientSecret !== undefined },
  relationships: { service_account: { data: { type: 'service-accounts', id: account.id } } },
  links: {
    self: `${baseUrl}${routePath('getServiceAccountKey', { org_id: account.org_id, service_account_id: account.id, key_id: key.id })}`,
  },
});
