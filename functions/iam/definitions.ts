/** IAM resource types: service accounts, grants, roles and role groups. */

import type { ZodEnum } from 'zod';
import type { StoredResource } from '#shared/data/stored-resource';
import { permissions } from '#shared/domain/permissions';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import type { SchemaBuilders } from '#shared/jsonapi/schema-builders';

export const serviceAccounts = defineResource({
  type: 'service-accounts',
  names: { one: 'ServiceAccount', many: 'ServiceAccounts' },
  collectionPath: '/v3/orgs/{org_id}/iam/service-accounts',
  itemPath: '/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}',
  permission: 'service-accounts',
  endpoints: {
    list: 'functions/iam/list-service-accounts.ts',
    get: 'functions/iam/get-service-account.ts',
    create: 'functions/iam/create-service-account.ts',
    update: 'functions/iam/update-service-account.ts',
    delete: 'functions/iam/delete-service-account.ts',
  },
  served: async () => {
    const builders = await loadSchemaBuilders();
    const { z } = builders;
    return {
      name: z.string(),
      description: z.string(),
      email: z.string().describe('Its own, or a generated `sa-<id>@service-accounts.invalid`.'),
      enabled: z.boolean(),
      keys: z.array(z.strictObject({ id: z.string(), ...serviceAccountKeyAttributes(builders) })),
    };
  },
  relationships: {
    organisation: false,
    organisations: { type: 'organisations', many: true },
    groups: { type: 'role-groups', many: true },
  },
  // In name order (the list's sort), on lsi2: lsi1 holds the sort.
  keys: {
    'filter-enabled': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#service-accounts',
      sk: 'enabled#{attributes.enabled}#{attributes.name:folded}\u0001{id}',
      about:
        "a service account under whether it is enabled, in name order (the list's sort): `filter[enabled]`; accounts written before issue 42 lack it until migrated",
    },
  },
  collection: {
    // Every filter indexed: name on its sort's lsi1, enabled (counted) on lsi2, a creation window on the ids.
    filters: {
      name: { kind: 'eq', path: 'attributes.name', index: 'sort-name' },
      enabled: {
        kind: 'eq',
        path: 'attributes.enabled',
        type: 'boolean',
        index: 'filter-enabled',
        counted: true,
      },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: ['groups'],
  },
});

export const grants = defineResource({
  type: 'grants',
  tag: 'IAM Grants',
  names: { one: 'Grant', many: 'Grants' },
  collectionPath: '/v3/orgs/{org_id}/iam/grants',
  itemPath: '/v3/orgs/{org_id}/iam/grants/{grant_id}',
  permission: 'grants',
  endpoints: {
    list: 'functions/iam/list-grants.ts',
    get: 'functions/iam/get-grant.ts',
    create: 'functions/iam/create-grant.ts',
    update: 'functions/iam/update-grant.ts',
    delete: 'functions/iam/delete-grant.ts',
  },
  // A grant is wholly its relationships: who holds which role or role group.
  served: () => ({}),
  relationships: {
    role: { type: 'roles' },
    role_group: { type: 'role-groups' },
    user: { type: 'users' },
    team: { type: 'teams' },
    service_account: { type: 'service-accounts' },
  },
  collection: {
    filters: {
      role: { kind: 'eq', path: 'rels.role' },
      role_group: { kind: 'eq', path: 'rels.role_group' },
      user: { kind: 'eq', path: 'rels.user' },
      team: { kind: 'eq', path: 'rels.team' },
      service_account: { kind: 'eq', path: 'rels.service_account' },
    },
    defaultSort: 'created_at',
    includes: ['role_group', 'user', 'team', 'service_account'],
  },
});

export const roleGroups = defineResource({
  type: 'role-groups',
  tag: 'IAM Role Groups',
  names: { one: 'RoleGroup', many: 'RoleGroups' },
  collectionPath: '/v3/orgs/{org_id}/iam/role-groups',
  itemPath: '/v3/orgs/{org_id}/iam/role-groups/{role_group_id}',
  permission: 'roles',
  endpoints: {
    list: 'functions/iam/list-role-groups.ts',
    get: 'functions/iam/get-role-group.ts',
    create: 'functions/iam/create-role-group.ts',
    update: 'functions/iam/update-role-group.ts',
    delete: 'functions/iam/delete-role-group.ts',
  },
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return { name: z.string(), description: z.string() };
  },
  relationships: { roles: { type: 'roles', many: true } },
  collection: {
    filters: { created_at: false, name: { kind: 'eq', path: 'attributes.name', index: 'sort-name' } },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: [],
  },
});

/**
 * The catalogue's names, in its order (the document's enum). Typed as plain strings: naming `Permission`
 * here would make this declaration's type depend on every manifest's (the catalogue is assembled from them).
 */
const catalogueNames = ({ z }: SchemaBuilders): ZodEnum => z.enum(permissions() as [string, ...string[]]);

export const roles = defineResource({
  type: 'roles',
  tag: 'IAM Roles',
  names: { one: 'Role', many: 'Roles' },
  collectionPath: '/v3/orgs/{org_id}/iam/roles',
  itemPath: '/v3/orgs/{org_id}/iam/roles/{role_id}',
  permission: 'roles',
  endpoints: {
    list: 'functions/iam/list-roles.ts',
    get: 'functions/iam/get-role.ts',
    create: 'functions/iam/create-role.ts',
    update: 'functions/iam/update-role.ts',
    delete: 'functions/iam/delete-role.ts',
  },
  served: async () => {
    const builders = await loadSchemaBuilders();
    const { z } = builders;
    return {
      name: z.string(),
      description: z.string(),
      permissions: z.array(catalogueNames(builders)),
    };
  },
  collection: {
    filters: {
      created_at: false,
      name: { kind: 'eq', path: 'attributes.name' },
      built_in: { kind: 'eq', path: 'meta.built_in', type: 'boolean' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: [],
  },
});

/**
 * The permission catalogue as a collection; ids are the permission names. An entry has no page of its
 * own (names are not path ids): its link is the catalogue filtered to it, which answers exactly it.
 */
const PERMISSIONS = '/v3/iam/permissions';

export const iamPermissions = defineResource({
  type: 'iam-permissions',
  tag: 'IAM Permissions',
  names: { one: 'Permission', many: 'Permissions' },
  collectionPath: PERMISSIONS,
  endpoints: { list: { handler: 'functions/iam/list-permissions.ts', access: {} } },
  permission: 'roles',
  served: async () => {
    const builders = await loadSchemaBuilders();
    const { z } = builders;
    return { name: catalogueNames(builders), description: z.string() };
  },
  relationships: { organisation: false },
  selfPath: (r) => `${PERMISSIONS}?${new URLSearchParams({ 'filter[name]': r.id })}`,
  collection: {
    filters: { created_at: false, name: { kind: 'eq', path: 'attributes.name' } },
    sorts: { created_at: false, name: { path: 'attributes.name' } },
    defaultSort: 'name',
    includes: [],
  },
});

/** A provider as stored: its client secret, if any, sealed beside the attributes, never among them. */
export type StoredSsoProvider = StoredResource & { client_secret_ciphertext?: string };

/**
 * A provider as written before issue 41 (no secret, no allow-list), read with what those mean: the shape
 * every write now stores, so no stored record needs rewriting.
 */
export const withShapeDefaults = (provider: StoredResource): StoredResource => ({
  ...provider,
  attributes: {
    ...provider.attributes,
    has_client_secret: (provider as StoredSsoProvider).client_secret_ciphertext !== undefined,
    return_to_allow_list: provider.attributes.return_to_allow_list ?? [],
  },
});

export const ssoProviders = defineResource({
  type: 'sso-providers',
  tag: 'SSO Providers',
  names: { one: 'SsoProvider', many: 'SsoProviders' },
  collectionPath: '/v3/sso-providers',
  itemPath: '/v3/sso-providers/{sso_provider_id}',
  endpoints: {
    list: { handler: 'functions/iam/list-sso-providers.ts', permission: 'sso-providers:manage' },
    get: { permission: 'sso-providers:manage' },
    create: {
      handler: 'functions/iam/create-sso-provider.ts',
      permission: 'sso-providers:manage',
      access: { table: 'write', ssoClientSecrets: 'encrypt' },
    },
    update: {
      handler: 'functions/iam/update-sso-provider.ts',
      permission: 'sso-providers:manage',
      access: { table: 'write', ssoClientSecrets: 'encrypt' },
    },
    delete: { handler: 'functions/iam/delete-sso-provider.ts', permission: 'sso-providers:manage' },
  },
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return {
      provider_type: z.literal('oidc'),
      name: z.string(),
      metadata: z.string().describe("The provider's OpenID discovery document, as given."),
      enforce: z.boolean(),
      client_id: z.string().optional(),
      has_client_secret: z
        .boolean()
        .describe(
          'Whether the client is confidential: a `client_secret` is set (write-only; never answered). The token exchange then authenticates with it as the discovery document says (client_secret_basic, else client_secret_post), with PKCE always.',
        ),
      allowed_domains: z.array(z.string()),
      return_to_allow_list: z
        .array(z.string())
        .describe(
          'Where sign-in may send the browser back (`return_to`): exact origin, and a path under the entry’s path.',
        ),
    };
  },
  relationships: { default_role: { type: 'roles' } },
  derive: async (_scope, items) => items.map(withShapeDefaults),
  collection: {
    filters: {
      created_at: false,
      name: { kind: 'eq', path: 'attributes.name' },
      organisation: { kind: 'eq', path: 'org_id' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: ['organisation'],
  },
});

/** A service account's key as its account lists it: never the secret, a mask ending in its last four characters. */
const serviceAccountKeyAttributes = ({ z, instant }: SchemaBuilders) => ({
  client_secret: z.string(),
  enabled: z.boolean(),
  created_at: instant(),
});

/** A key of its own (`/keys`): its client id, and its secret in full once, in the answer that made it. */
export const keyAttributes = async () => {
  const builders = await loadSchemaBuilders();
  return { client_id: builders.z.string(), ...serviceAccountKeyAttributes(builders) };
};

/** The caller (`GET /v3/whoami`): a user or a service account. */
export const whoamiAttributes = async () => {
  const { z } = await loadSchemaBuilders();
  return { kind: z.enum(['user', 'service-account']), name: z.string() };
};
