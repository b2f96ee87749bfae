/** IAM resource types: service accounts, grants, roles and role groups. */
import { routePath } from '../../jsonapi/links';
import { createdAtSort, defineResource } from '../resource-definition';

export const serviceAccounts = defineResource({
  type: 'service-accounts',
  relationships: {
    organisations: { type: 'organisations', many: true },
    groups: { type: 'role-groups', many: true },
  },
  self: 'getServiceAccount',
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
  self: 'getGrant',
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
  self: 'getRoleGroup',
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
  self: 'getRole',
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

/**
 * The permission catalogue as a collection; ids are the permission names. An entry has no page of its
 * own (names are not path ids): its link is the catalogue filtered to it, which answers exactly it.
 */
export const iamPermissions = defineResource({
  type: 'iam-permissions',
  relationships: {},
  self: (r) => `${routePath('listPermissions')}?${new URLSearchParams({ 'filter[name]': r.id })}`,
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
  self: 'getSsoProvider',
  collection: {
    filters: { name: { kind: 'eq', path: 'attributes.name' }, organisation: { kind: 'eq', path: 'org_id' } },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' }, ...createdAtSort },
    defaultSort: 'name',
    includes: ['organisation'],
  },
});
