/**
 * SSO providers (OIDC) per organisation. The provider, a claim on its name within the organisation
 * (409 when taken) and the check that its default role exists commit together. Nothing is fetched from
 * the provider when it is saved; sign-in through it (functions/auth/sso-login.ts) starts sessions.
 *
 * A confidential client's `client_secret` is kept only encrypted (`#shared/data/sso-client-secrets`),
 * outside the attributes, so no answer, event or audit entry can carry it: the attributes say only
 * `has_client_secret`.
 */

import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { config } from '#shared/config';
import { declareAccessPatterns, keyFrom } from '#shared/data/access-patterns';
import { uuidv7 } from '#shared/data/ids';
import type { Scope } from '#shared/data/scope';
import { sealClientSecret } from '#shared/data/sso-client-secrets';
import type { StoredResource } from '#shared/data/stored-resource';
import { tenantPattern } from '#shared/data/stored-resource';
import { commit, type WriteOp, WriteRefused } from '#shared/data/transaction';
import { builtInRoles } from '#shared/domain/effective-permissions';
import { returnToEntryProblem } from '#shared/domain/return-to';
import { changedRecord, commitChecked } from '#shared/engine/record-writes';
import { toStoredResource } from '#shared/engine/stored';
import { requiredLine } from '#shared/jsonapi/attribute-types';
import { ConflictError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId } from '#shared/jsonapi/request-document';
import { roles, type StoredSsoProvider, ssoProviders, withShapeDefaults } from './definitions';
import { oidcMetadataProblem } from './rules/oidc-metadata';

const rules = () => ({ loopbackHttp: config.SSO_ALLOW_LOOPBACK_HTTP });

/** The writable attributes, each as create and PATCH take it (PATCH: every one optional, no defaults). */
const attributes = () => ({
  name: requiredLine(200),
  metadata: z
    .string()
    .min(1)
    .max(20_000)
    .refine((m) => oidcMetadataProblem(m, rules()) === null, {
      error: (issue) => oidcMetadataProblem(String(issue.input), rules()) ?? 'Invalid metadata.',
    }),
  enforce: z.boolean(),
  // The client this service is at the provider: public (PKCE only) without a secret.
  client_id: requiredLine(255),
  // A confidential client's secret: write-only, kept encrypted; null removes it (PATCH).
  client_secret: requiredLine(512),
  // E-mail domains whose people may sign in; a new user is made only for these. None: nobody.
  allowed_domains: z
    .array(
      z
        .string()
        .max(253)
        .regex(
          /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i,
          'must be a domain name, such as northmere.example',
        )
        .transform((d) => d.toLowerCase()),
    )
    .max(20),
  // Where a web app may have the browser sent after sign-in (`shared/domain/return-to.ts`). None: JSON answers only.
  return_to_allow_list: z
    .array(
      z
        .string()
        .max(2048)
        .superRefine((entry, context) => {
          const problem = returnToEntryProblem(entry, rules());
          if (problem) context.addIssue({ code: 'custom', message: problem });
        })
        .transform((entry) => new URL(entry).href),
    )
    .max(20),
});

const defaultRole = z.strictObject({
  data: z.strictObject({ type: z.literal('roles'), id: z.string().min(1).max(64) }),
});

export const createSsoProviderDocument = z.lazy(() => {
  const a = attributes();
  return z.strictObject({
    data: z.strictObject({
      type: z.literal('sso-providers'),
      attributes: z.strictObject({
        name: a.name,
        metadata: a.metadata,
        enforce: a.enforce.default(false),
        client_id: a.client_id.optional(),
        client_secret: a.client_secret.optional(),
        allowed_domains: a.allowed_domains.default([]),
        return_to_allow_list: a.return_to_allow_list.default([]),
      }),
      relationships: z.strictObject({
        organisation: z.strictObject({
          data: z.strictObject({ type: z.literal('organisations'), id: z.uuid() }),
        }),
        default_role: defaultRole.optional(),
      }),
    }),
  });
});

export const updateSsoProviderDocument = z.lazy(() => {
  const a = attributes();
  return z.strictObject({
    data: z.strictObject({
      type: z.literal('sso-providers'),
      id: z.string(),
      attributes: z
        .strictObject({
          name: a.name,
          metadata: a.metadata,
          enforce: a.enforce,
          client_id: a.client_id,
          client_secret: a.client_secret.nullable(),
          allowed_domains: a.allowed_domains,
          return_to_allow_list: a.return_to_allow_list,
        })
        .partial()
        .optional(),
      relationships: z.strictObject({ default_role: defaultRole.optional() }).optional(),
    }),
  });
});

export type SsoProviderDocument = z.infer<typeof createSsoProviderDocument>;
export type SsoProviderChanges = z.infer<typeof updateSsoProviderDocument>;

export type { StoredSsoProvider } from './definitions';

/**
 * Where sign-in finds a provider from its `oidc_identifier` (the one part of the login URL): which
 * organisation, which provider. Written with the provider.
 */
const keys = /* @__PURE__ */ declareAccessPatterns('iam/sso-providers', {
  identifier: {
    index: 'table',
    pk: 'OIDC#{identifier}',
    sk: 'OIDC',
    about: 'which organisation and provider an `oidc_identifier` names',
  },
  name: { ...tenantPattern('sso-provider-names', '{name}'), about: '`holder_id`; the name case-folded' },
});
export const oidcIdentifierKey = (identifier: string) => keyFrom(keys.identifier, { identifier });

const nameClaim = (orgId: string, name: string) =>
  keyFrom(keys.name, { org_id: orgId, name: name.toLowerCase() });

const nameTaken = () =>
  new ConflictError('This organisation already has an SSO provider of that name.', {
    pointer: '/data/attributes/name',
  });

const noSuchRole = () =>
  new ValidationError({
    detail: 'No such role in this organisation.',
    source: { pointer: '/data/relationships/default_role/data/id' },
  });

const sealed = (provider: StoredResource, secret: string) =>
  sealClientSecret(secret, { org_id: provider.org_id, sso_provider_id: provider.id });

export const createSsoProvider = async (
  scope: Scope,
  { data }: SsoProviderDocument,
  now = new Date(),
): Promise<StoredResource> => {
  const orgId = data.relationships.organisation.data.id;
  const role = data.relationships.default_role?.data.id ?? 'viewer';
  const { client_secret: secret, ...given } = data.attributes;
  const record = toStoredResource(ssoProviders, {
    orgId,
    id: uuidv7(now.getTime()),
    // The spec's attribute `type` cannot exist in a JSON:API document (a reserved member name): it is `provider_type`.
    attributes: { provider_type: 'oidc', ...given, has_client_secret: secret !== undefined },
    meta: {
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      oidc_identifier: `oidc_${randomBytes(12).toString('hex')}`,
    },
    rels: { default_role: role },
  });
  const provider: StoredSsoProvider = secret
    ? { ...record, client_secret_ciphertext: await sealed(record, secret) }
    : record;
  const ops: WriteOp[] = [
    { create: provider },
    { claim: nameClaim(orgId, data.attributes.name) },
    {
      claim: {
        ...oidcIdentifierKey(String(provider.meta.oidc_identifier)),
        org_id: orgId,
        holder_id: provider.id,
      },
    },
  ];
  if (!builtInRoles.has(role)) ops.push({ check: roles.keyOf(orgId, role) });
  await commit(scope, ops).catch((error: unknown) => {
    if (error instanceof WriteRefused && error.op === 1) throw nameTaken();
    if (error instanceof WriteRefused && error.op === 3) throw noSuchRole();
    throw error;
  });
  return provider;
};

/**
 * A change: a new name moves its claim; `client_secret` replaces the sealed secret (null removes it);
 * a new default role must exist. Committed on the version read (If-Match, or 409 on a lost race).
 */
export const updateSsoProvider = async (
  scope: Scope,
  provider: StoredSsoProvider,
  { data }: SsoProviderChanges,
  now = new Date(),
): Promise<StoredResource> => {
  assertSameId(data.id, provider.id);
  const { client_secret: secret, ...given } = data.attributes ?? {};
  const role = data.relationships?.default_role?.data.id;
  const ciphertext =
    secret === undefined ? provider.client_secret_ciphertext : secret && (await sealed(provider, secret));
  const changed = changedRecord(
    ssoProviders,
    provider,
    {
      attributes: { ...withShapeDefaults(provider).attributes, ...given, has_client_secret: !!ciphertext },
      ...(role && { rels: { default_role: role } }),
    },
    now,
  );
  const { client_secret_ciphertext: _former, ...base } = changed as StoredSsoProvider;
  const next: StoredSsoProvider = ciphertext ? { ...base, client_secret_ciphertext: ciphertext } : base;

  const oldName = String(provider.attributes.name);
  const renamed = given.name !== undefined && given.name.toLowerCase() !== oldName.toLowerCase();
  const ops: WriteOp[] = [
    { replace: next, was: provider },
    ...(renamed && given.name
      ? [{ claim: nameClaim(provider.org_id, given.name) }, { remove: nameClaim(provider.org_id, oldName) }]
      : []),
  ];
  const checks =
    role && !builtInRoles.has(role)
      ? [
          {
            op: { check: roles.keyOf(provider.org_id, role) },
            pointer: '/data/relationships/default_role/data/id',
          },
        ]
      : [];
  await commitChecked(scope, ops, checks, (error) => {
    if (renamed && error.op === 1) throw nameTaken();
    throw error.code === 'stale'
      ? new ConflictError('The record changed while this request was applied; read it again and retry.')
      : error;
  });
  return next;
};

/**
 * A provider removed with its name and its `oidc_identifier`: its sign-in URL answers 404 at once, and a
 * sign-in in flight through it is refused at the callback (the provider is gone). Users it made stay,
 * with their grants and sessions; they sign in through another provider (linked by verified address) or
 * an invitation. Their identity links name a provider id no provider will have again.
 */
export const deleteSsoProvider = async (scope: Scope, provider: StoredResource): Promise<void> => {
  await commitChecked(
    scope,
    [
      { delete: provider },
      { remove: nameClaim(provider.org_id, String(provider.attributes.name)) },
      { remove: oidcIdentifierKey(String(provider.meta.oidc_identifier)) },
    ],
    [],
  );
};
