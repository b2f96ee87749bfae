/** A body for each of the iam area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { many, one, type RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createRole: () => ({
    data: { type: 'roles', attributes: { name: 'Reader', permissions: ['teams:view'] } },
  }),
  updateRole: (i) => ({ data: { type: 'roles', id: i.role_id, attributes: { name: 'Team reader' } } }),
  createRoleGroup: (i) => ({
    data: {
      type: 'role-groups',
      attributes: { name: 'Readers' },
      relationships: { roles: many('roles', [i.role_id, 'viewer']) },
    },
  }),
  updateRoleGroup: (i) => ({
    data: { type: 'role-groups', id: i.role_group_id, relationships: { roles: many('roles', [i.role_id]) } },
  }),
  createServiceAccount: () => ({
    data: { type: 'service-accounts', attributes: { name: 'Bridge', description: 'SCADA bridge' } },
  }),
  updateServiceAccount: (i) => ({
    data: { type: 'service-accounts', id: i.service_account_id, attributes: { description: 'Bridge' } },
  }),
  updateServiceAccountKey: (i) => ({
    data: { type: 'service-account-keys', id: i.key_id, attributes: { enabled: true } },
  }),
  createGrant: (i) => ({
    data: {
      type: 'grants',
      relationships: {
        role: one('roles', i.role_id),
        service_account: one('service-accounts', i.service_account_id),
      },
    },
  }),
  updateGrant: (i) => ({
    data: {
      type: 'grants',
      id: i.grant_id,
      relationships: { role_group: one('role-groups', i.role_group_id) },
    },
  }),
  createSsoProvider: (i) => ({
    data: {
      type: 'sso-providers',
      attributes: {
        name: `Entra ID ${i.reference}`,
        metadata: 'https://login.example/.well-known/openid-configuration',
        enforce: false,
        client_id: 'compliance-api',
        client_secret: 'a confidential client’s secret: write-only',
        return_to_allow_list: ['https://app.example/signed-in'],
      },
      relationships: { organisation: one('organisations', i.org_id), default_role: one('roles', i.role_id) },
    },
  }),
  updateSsoProvider: (i) => ({
    data: {
      type: 'sso-providers',
      id: i.sso_provider_id,
      attributes: { client_secret: null, return_to_allow_list: ['https://app.example/sso/'] },
    },
  }),
  createServiceAccountKey: null,
};
