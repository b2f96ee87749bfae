/**
 * Service accounts and their keys. The account record, its principal record (what authentication reads)
 * and its keys' client records change together in one transaction, conditional on the version read,
 * so a disabled key or account stops working on the next call and a lost race is a 409.
 */
import * as z from 'zod';
import { hashSecret, newClientSecret } from '#shared/auth/secret-hash';
import { uuidv7 } from '#shared/data/ids';
import {
  type ClientRecord,
  clientKey,
  grantsOf,
  type PrincipalRecord,
  principalKey,
} from '#shared/data/principals';
import type { Scope } from '#shared/data/scope';
import { countMoves, type ItemKey, type StoredResource } from '#shared/data/stored-resource';
import {
  commit,
  TRANSACTION_MAX,
  transactionSize,
  type WriteOp,
  WriteRefused,
} from '#shared/data/transaction';
import { changedRecord } from '#shared/engine/record-writes';
import { toStoredResource } from '#shared/engine/stored';
import { email, freeText, requiredLine } from '#shared/jsonapi/attribute-types';
import { ConflictError } from '#shared/jsonapi/errors';
import { assertSameId, createDocument } from '#shared/jsonapi/request-document';
import { serviceAccounts } from './definitions';
import { holdingOps } from './grant-writes';
import { keysOf, type StoredKey } from './service-account-keys';

/** Keys per account: enough to rotate without downtime, few enough to keep one item small. */
export const KEYS_PER_ACCOUNT_MAX = 10;

const name = z.lazy(() => requiredLine(200));
const description = z.lazy(() => freeText(2000));

export const createServiceAccountDocument = z.lazy(() =>
  createDocument(
    'service-accounts',
    {
      name,
      description: description.default(''),
      email: email().optional(),
      enabled: z.boolean().default(true),
    },
    {},
  ),
);

export const updateServiceAccountDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('service-accounts'),
      id: z.uuid(),
      attributes: z.strictObject({
        name: name.optional(),
        description: description.optional(),
        enabled: z.boolean().optional(),
      }),
    }),
  }),
);

export const updateKeyDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('service-account-keys'),
      id: z.uuid(),
      attributes: z.strictObject({ enabled: z.boolean() }),
    }),
  }),
);

/** What authentication reads about an account: derived from the account record, never edited apart. */
export const principalOf = (account: StoredResource): PrincipalRecord & ItemKey => ({
  ...principalKey(account.id),
  kind: 'service-account',
  id: account.id,
  name: String(account.attributes.name),
  enabled: account.attributes.enabled === true,
  keys: Object.fromEntries(keysOf(account).map((k) => [k.id, { enabled: k.enabled }])),
  teams: {},
});

const nextVersion = (account: StoredResource, attributes: Record<string, unknown>, now = new Date()) =>
  changedRecord(serviceAccounts, account, { attributes }, now);

const staleIsConflict = (error: unknown): never => {
  if (error instanceof WriteRefused && (error.code === 'stale' || error.code === 'exists')) {
    throw new ConflictError(
      'The service account changed while this request was applied; read it again and retry.',
    );
  }
  throw error;
};

export const createServiceAccount = async (
  scope: Scope,
  orgId: string,
  { data }: z.infer<typeof createServiceAccountDocument>,
  now = new Date(),
): Promise<StoredResource> => {
  const id = uuidv7(now.getTime());
  const account = toStoredResource(serviceAccounts, {
    orgId,
    id,
    attributes: {
      ...data.attributes,
      email: data.attributes.email ?? `sa-${id}@service-accounts.invalid`,
      keys: [],
    },
    meta: { created_at: now.toISOString(), updated_at: now.toISOString() },
    rels: { organisations: [orgId], groups: [] },
  });
  await commit(scope, [{ create: account }, { put: principalOf(account) }]);
  // As stored, its counts moved: a change built on it (a local client's first key, `createKey`) would
  // otherwise move its `enabled` count a second time.
  return countMoves(account, true).stored;
};

export const updateServiceAccount = async (
  scope: Scope,
  account: StoredResource,
  { data }: z.infer<typeof updateServiceAccountDocument>,
): Promise<StoredResource> => {
  assertSameId(data.id, account.id);
  const next = nextVersion(account, data.attributes);
  await commit(scope, [{ replace: next, was: account }, { put: principalOf(next) }]).catch(staleIsConflict);
  return next;
};

/** Deletes the account, its principal, its keys' client records and every grant it holds. */
export const deleteServiceAccount = async (scope: Scope, account: StoredResource): Promise<void> => {
  const held = (await grantsOf(account.id)).filter((g) => g.org_id === account.org_id);
  const ops: WriteOp[] = [
    { delete: account },
    { remove: principalKey(account.id) },
    ...keysOf(account).map((k) => ({ remove: clientKey(k.id) })),
    ...held.flatMap((g) => [{ delete: g }, ...holdingOps(g, [account.id], null)]),
  ];
  if (transactionSize(ops) > TRANSACTION_MAX) {
    throw new ConflictError('Revoke some of this account’s grants before deleting it.');
  }
  await commit(scope, ops).catch(staleIsConflict);
};

const mask = (secret: string) => `${'*'.repeat(12)}${secret.slice(-4)}`;

/** Adds a key; the secret is returned here once and stored only as a salted hash. */
export const createKey = async (
  scope: Scope,
  account: StoredResource,
  now = new Date(),
): Promise<{ account: StoredResource; key: StoredKey; clientSecret: string }> => {
  if (keysOf(account).length >= KEYS_PER_ACCOUNT_MAX) {
    throw new ConflictError(
      `A service account holds at most ${KEYS_PER_ACCOUNT_MAX} keys; delete one first.`,
    );
  }
  const clientSecret = newClientSecret();
  const key: StoredKey = {
    id: uuidv7(now.getTime()),
    client_secret: mask(clientSecret),
    enabled: true,
    created_at: now.toISOString(),
  };
  const next = nextVersion(account, { keys: [...keysOf(account), key] }, now);
  const client: ClientRecord & ItemKey = {
    ...clientKey(key.id),
    client_id: key.id,
    principal_id: account.id,
    org_id: account.org_id,
    secret_hash: await hashSecret(clientSecret),
    created_at: key.created_at,
  };
  await commit(scope, [{ replace: next, was: account }, { put: principalOf(next) }, { put: client }]).catch(
    staleIsConflict,
  );
  return { account: next, key, clientSecret };
};

export const setKeyEnabled = async (
  scope: Scope,
  account: StoredResource,
  keyId: string,
  enabled: boolean,
) => {
  const next = nextVersion(account, {
    keys: keysOf(account).map((k) => (k.id === keyId ? { ...k, enabled } : k)),
  });
  await commit(scope, [{ replace: next, was: account }, { put: principalOf(next) }]).catch(staleIsConflict);
  return next;
};

export const deleteKey = async (scope: Scope, account: StoredResource, keyId: string) => {
  const next = nextVersion(account, { keys: keysOf(account).filter((k) => k.id !== keyId) });
  await commit(scope, [
    { replace: next, was: account },
    { put: principalOf(next) },
    { remove: clientKey(keyId) },
  ]).catch(staleIsConflict);
};
