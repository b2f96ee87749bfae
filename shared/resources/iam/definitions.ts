/** IAM resource types: service accounts, grants, roles and role groups. */
import { createdAtSort, defineResource } from '../resource-definition';

export const serviceAccounts = defineResource({
  type: 'service-accounts',
  relationships: {
    organisations: { type: 'organisations', many: true },
    groups: { type: 'role-groups', many: true },
  },
  selfPath: (r) => `/v3/orgs/${r.org_id}/iam/service-accounts/${r.id}`,
  collection: {
    filters: {
      name: { kind: 'eq', path: 'attributes.name' },
      enabled: { kind: 'eq', path: 'attributes.enabled', type: 'boolean' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' }, ...createdAtSort },
    defaultSort: 'name',
    includes: ['groups'],
  },
});

export const grants = defineResource({
  type: 'grants',
  relationships: {
    organisation: { type: 'organisations' },
    role: { type: 'roles' },
    role_group: { type: 'role-groups' },
    user: { type: 'users' },
    team: { type: 'teams' },
    service_account: { type: 'service-accounts' },
  },
  selfPath: (r) => `/v3/orgs/${r.org_id}/iam/grants/${r.id}`,
  collection: {
    filters: {
      role: { kind: 'eq', path: 'rels.role' },
      role_group: { kind: 'eq', path: 'rels.role_group' },
      user: { kind: 'eq', path: 'rels.user' },
      team: { kind: 'eq', path: 'rels.team' },
      service_account: { kind: 'eq', path: 'rels.service_account' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: { ...createdAtSort },
    defaultSort: 'created_at',
    includes: ['role_group', 'user', 'team', 'service_account'],
  },
});

export const roleGroups = defineResource({
  type: 'role-groups',
  relationships: { organisation: { type: 'organisations' }, roles: { type: 'roles', many: true } },
  selfPath: (r) => `/v3/orgs/${r.org_id}/iam/role-groups/${r.id}`,
  collection: {
    filters: { name: { kind: 'eq', path: 'attributes.name' } },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' }, ...createdAtSort },
    defaultSort: 'name',
    includes: [],
  },
});

export const roles = defineResource({
  type: 'roles',
  relationships: { organisation: { type: 'organisations' } },
  selfPath: (r) => `/v3/orgs/${r.org_id}/iam/roles/${r.id}`,
  collection: {
    filters: {
      name: { kind: 'eq', path: 'attributes.name' },
      built_in: { kind: 'eq', path: 'meta.built_in', type: 'boolean' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' }, ...createdAtSort },
    defaultSort: 'name',
    includes: [],
  },
});

/** The permission catalogue as a collection; ids are the permission names. */
export const iamPermissions = defineResource({
  type: 'iam-permissions',
  relationships: {},
  selfPath: (r) => `/v3/iam/permissions?${new URLSearchParams({ 'filter[name]': r.id })}`,
  collection: {
    filters: { name: { kind: 'eq', path: 'attributes.name' } },
    sorts: { name: { path: 'attributes.name' } },
    defaultSort: 'name',
    includes: [],
  },
});

export const ssoProviders = defineResource({
  type: 'sso-providers',
  relationships: { organisation: { type: 'organisations' }, default_role: { type: 'roles' } },
  selfPath: (r) => `/v3/sso-providers/${r.id}`,
  collection: {
    filters: { name: { kind: 'eq', path: 'attributes.name' }, organisation: { kind: 'eq', path: 'org_id' } },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' }, ...createdAtSort },
    defaultSort: 'name',
    includes: ['organisation'],
  },
});
