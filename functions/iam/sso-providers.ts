/**
 * SSO providers (OIDC) per organisation. The provider, a claim on its name within the organisation
 * (409 when taken) and the check that its default role exists commit together. Nothing is fetched from
 * the provider at create time; login through it (later) will create sessions with `startSession`.
 */

import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { config } from '#shared/config';
import { declareAccessPatterns, keyFrom } from '#shared/data/access-patterns';
import { uuidv7 } from '#shared/data/ids';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { tenantPattern } from '#shared/data/stored-resource';
import { commit, type WriteOp, WriteRefused } from '#shared/data/transaction';
import { builtInRoles } from '#shared/domain/effective-permissions';
import { toStoredResource } from '#shared/engine/stored';
import { requiredLine } from '#shared/jsonapi/attribute-types';
import { ConflictError, ValidationError } from '#shared/jsonapi/errors';
import { roles, ssoProviders } from './definitions';
import { oidcMetadataProblem } from './rules/oidc-metadata';

export const createSsoProviderDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('sso-providers'),
      attributes: z.strictObject({
        name: requiredLine(200),
        metadata: z
          .string()
          .min(1)
          .max(20_000)
          .refine((m) => oidcMetadataProblem(m, rules()) === null, {
            error: (issue) => oidcMetadataProblem(String(issue.input), rules()) ?? 'Invalid metadata.',
          }),
        enforce: z.boolean().default(false),
        // The client this service is at the provider (a public client: authorization code with PKCE).
        client_id: requiredLine(255).optional(),
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
          .max(20)
          .default([]),
      }),
      relationships: z.strictObject({
        organisation: z.strictObject({
          data: z.strictObject({ type: z.literal('organisations'), id: z.uuid() }),
        }),
        default_role: z
          .strictObject({ data: z.strictObject({ type: z.literal('roles'), id: z.string().min(1).max(64) }) })
          .optional(),
      }),
    }),
  }),
);

export type SsoProviderDocument = z.infer<typeof createSsoProviderDocument>;

const rules = () => ({ loopbackHttp: config.SSO_ALLOW_LOOPBACK_HTTP });

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

export const createSsoProvider = async (
  scope: Scope,
  { data }: SsoProviderDocument,
  now = new Date(),
): Promise<StoredResource> => {
  const orgId = data.relationships.organisation.data.id;
  const defaultRole = data.relationships.default_role?.data.id ?? 'viewer';
  const provider = toStoredResource(ssoProviders, {
    orgId,
    id: uuidv7(now.getTime()),
    // The spec's attribute `type` cannot exist in a JSON:API document (a reserved member name): it is `provider_type`.
    attributes: { provider_type: 'oidc', ...data.attributes },
    meta: {
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      oidc_identifier: `oidc_${randomBytes(12).toString('hex')}`,
    },
    rels: { default_role: defaultRole },
  });
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
  if (!builtInRoles.has(defaultRole)) ops.push({ check: roles.keyOf(orgId, defaultRole) });
  await commit(scope, ops).catch((error: unknown) => {
    if (error instanceof WriteRefused && error.op === 1) {
      throw new ConflictError('This organisation already has an SSO provider of that name.', {
        pointer: '/data/attributes/name',
      });
    }
    if (error instanceof WriteRefused && error.op === 3) {
      throw new ValidationError({
        detail: 'No such role in this organisation.',
        source: { pointer: '/data/relationships/default_role/data/id' },
      });
    }
    throw error;
  });
  return provider;
};
