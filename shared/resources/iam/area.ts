import { defineArea } from '../area';
import { grants, iamPermissions, roleGroups, roles, serviceAccounts, ssoProviders } from './definitions';

export const area = defineArea('iam', {
  tag: 'Service Accounts',
  resources: [serviceAccounts, grants, roleGroups, roles, ssoProviders, iamPermissions],
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
