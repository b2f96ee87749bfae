import { defineArea } from '#shared/engine/area';
import { eventConsumer } from '#shared/engine/event-consumers';
import { migration } from '#shared/engine/migration-declarations';
import {
  grants,
  iamPermissions,
  keyAttributes,
  roleGroups,
  roles,
  serviceAccounts,
  ssoProviders,
  whoamiAttributes,
} from './definitions';

export const area = defineArea('iam', {
  tag: 'Service Accounts',
  permissions: {
    'service-accounts:view': 'See service accounts and their keys (never their secrets).',
    'service-accounts:manage': 'Create, change and delete service accounts and their keys.',
    'roles:view': 'See roles, role groups and the permission catalogue.',
    'roles:manage': 'Create, change and delete custom roles and role groups.',
    'grants:view': 'See who holds which role in the organisation.',
    'grants:manage': 'Give and revoke roles and role groups.',
    'sso-providers:manage': 'See, add and change the organisation’s single sign-on providers.',
  },
  consumers: [
    eventConsumer(
      'grant-names',
      { module: 'functions/iam/grant-names.ts', handle: 'keepGrantNames' },
      'keep',
    ),
  ],
  migrations: [
    migration(8, 'sso-identifier-index', {
      module: 'functions/iam/migrations/sso-identifier-index.ts',
      step: 'ssoIdentifierIndex',
    }),
    migration(13, 'held-grants', {
      module: 'functions/iam/migrations/held-grants.ts',
      step: 'heldGrants',
    }),
    migration(36, 'service-account-filter-index', {
      module: 'functions/iam/migrations/service-account-filter-index.ts',
      step: 'serviceAccountFilterIndex',
    }),
  ],
  resources: [serviceAccounts, grants, roleGroups, roles, ssoProviders, iamPermissions],
  answered: { whoami: whoamiAttributes, 'service-account-keys': keyAttributes },
  routes: [
    {
      id: 'whoAmI',
      method: 'GET',
      path: '/v3/whoami',
      handler: 'functions/iam/who-am-i.ts',
      answers: { status: 200, resource: 'whoami' },
      tag: 'Whoami',
      permission: 'authenticated',
      query: [],
    },
    {
      id: 'listServiceAccountKeys',
      method: 'GET',
      path: '/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}/keys',
      handler: 'functions/iam/list-service-account-keys.ts',
      answers: { status: 200, collection: 'service-account-keys' },
      permission: 'service-accounts:view',
    },
    {
      id: 'createServiceAccountKey',
      method: 'POST',
      path: '/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}/keys',
      handler: 'functions/iam/create-service-account-key.ts',
      answers: { status: 201, resource: 'service-account-keys' },
      permission: 'service-accounts:manage',
    },
    {
      id: 'getServiceAccountKey',
      method: 'GET',
      path: '/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}/keys/{key_id}',
      handler: 'functions/iam/get-service-account-key.ts',
      answers: { status: 200, resource: 'service-account-keys' },
      permission: 'service-accounts:view',
      query: [],
    },
    {
      id: 'updateServiceAccountKey',
      method: 'PATCH',
      path: '/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}/keys/{key_id}',
      handler: 'functions/iam/update-service-account-key.ts',
      answers: { status: 200, resource: 'service-account-keys' },
      permission: 'service-accounts:manage',
    },
    {
      id: 'deleteServiceAccountKey',
      method: 'DELETE',
      path: '/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}/keys/{key_id}',
      handler: 'functions/iam/delete-service-account-key.ts',
      answers: { status: 204 },
      permission: 'service-accounts:manage',
    },
  ],
});
