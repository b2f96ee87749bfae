/**
 * The route table: the one place where routes are listed. The CDK stack creates one function and one
 * API Gateway route per entry, the local adapter mounts the same entries, and the fallback handler
 * derives 404/405 answers from it. Adding an endpoint = a handler file + an entry here.
 */

import type { AuthScheme } from './auth/schemes';
import type { Permission } from './domain/iam/permissions';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route's function may touch; the stack turns this into least-privilege grants. */
export interface RouteAccess {
  table?: 'read' | 'write';
  buckets?: { deviceBackups?: 'read' | 'write'; exports?: 'read' | 'write' };
  /** Sign tokens with the KMS signing key. */
  signing?: true;
}

export interface Route {
  /** Unique, stable identifier: names the Lambda function and the CloudFormation logical ids. */
  id: string;
  method: HttpMethod;
  /** API Gateway path template, e.g. `/v3/orgs/{org_id}/people/teams`. */
  path: string;
  /** Handler module, relative to the repository root; it exports `handler`. */
  handler: string;
  /** Accepted schemes; an empty list means the route is public. */
  auth: readonly AuthScheme[];
  /**
   * Permission checked once by the auth middleware: a catalogue permission; `authenticated` for routes
   * any authenticated caller may use about itself (whoami); `null` for public routes only.
   */
  permission: Permission | 'authenticated' | null;
  access: RouteAccess;
  /** Media type of the request body when it is not JSON:API (token endpoint, SNS receiver). */
  bodyType?: 'form' | 'text';
}

const USER_OR_MACHINE = ['OAuth2', 'Session', 'Cookie'] as const;

export const routes = [
  {
    id: 'getStatus',
    method: 'GET',
    path: '/v3/status',
    handler: 'functions/status/get-status.ts',
    auth: [],
    permission: null,
    access: { table: 'read' },
  },
  {
    id: 'issueToken',
    method: 'POST',
    path: '/oauth2/token',
    handler: 'functions/auth/issue-token.ts',
    auth: [],
    permission: null,
    access: { table: 'read', signing: true },
    bodyType: 'form',
  },
  {
    id: 'getJwks',
    method: 'GET',
    path: '/.well-known/jwks.json',
    handler: 'functions/auth/get-jwks.ts',
    auth: [],
    permission: null,
    access: { signing: true },
  },
  {
    id: 'listOrganisations',
    method: 'GET',
    path: '/v3/orgs',
    handler: 'functions/organisations/list-organisations.ts',
    auth: USER_OR_MACHINE,
    permission: 'organisations:view',
    access: { table: 'read' },
  },
  {
    id: 'listTeams',
    method: 'GET',
    path: '/v3/orgs/{org_id}/people/teams',
    handler: 'functions/people/list-teams.ts',
    auth: USER_OR_MACHINE,
    permission: 'teams:view',
    access: { table: 'read' },
  },
  {
    id: 'createTeam',
    method: 'POST',
    path: '/v3/orgs/{org_id}/people/teams',
    handler: 'functions/people/create-team.ts',
    auth: USER_OR_MACHINE,
    permission: 'teams:manage',
    access: { table: 'write' },
  },
  {
    id: 'listFeatureConfigurations',
    method: 'GET',
    path: '/v3/feature-configurations',
    handler: 'functions/feature-configurations/list-feature-configurations.ts',
    auth: USER_OR_MACHINE,
    permission: 'feature-configurations:view',
    access: { table: 'read' },
  },
  {
    id: 'whoAmI',
    method: 'GET',
    path: '/v3/whoami',
    handler: 'functions/iam/who-am-i.ts',
    auth: USER_OR_MACHINE,
    permission: 'authenticated',
    access: { table: 'read' },
  },
  {
    id: 'listPermissions',
    method: 'GET',
    path: '/v3/iam/permissions',
    handler: 'functions/iam/list-permissions.ts',
    auth: USER_OR_MACHINE,
    permission: 'roles:view',
    access: {},
  },
  {
    id: 'listServiceAccounts',
    method: 'GET',
    path: '/v3/orgs/{org_id}/iam/service-accounts',
    handler: 'functions/iam/list-service-accounts.ts',
    auth: USER_OR_MACHINE,
    permission: 'service-accounts:view',
    access: { table: 'read' },
  },
  {
    id: 'createServiceAccount',
    method: 'POST',
    path: '/v3/orgs/{org_id}/iam/service-accounts',
    handler: 'functions/iam/create-service-account.ts',
    auth: USER_OR_MACHINE,
    permission: 'service-accounts:manage',
    access: { table: 'write' },
  },
  {
    id: 'getServiceAccount',
    method: 'GET',
    path: '/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}',
    handler: 'functions/iam/get-service-account.ts',
    auth: USER_OR_MACHINE,
    permission: 'service-accounts:view',
    access: { table: 'read' },
  },
  {
    id: 'updateServiceAccount',
    method: 'PATCH',
    path: '/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}',
    handler: 'functions/iam/update-service-account.ts',
    auth: USER_OR_MACHINE,
    permission: 'service-accounts:manage',
    access: { table: 'write' },
  },
  {
    id: 'deleteServiceAccount',
    method: 'DELETE',
    path: '/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}',
    handler: 'functions/iam/delete-service-account.ts',
    auth: USER_OR_MACHINE,
    permission: 'service-accounts:manage',
    access: { table: 'write' },
  },
  {
    id: 'listServiceAccountKeys',
    method: 'GET',
    path: '/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}/keys',
    handler: 'functions/iam/list-service-account-keys.ts',
    auth: USER_OR_MACHINE,
    permission: 'service-accounts:view',
    access: { table: 'read' },
  },
  {
    id: 'createServiceAccountKey',
    method: 'POST',
    path: '/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}/keys',
    handler: 'functions/iam/create-service-account-key.ts',
    auth: USER_OR_MACHINE,
    permission: 'service-accounts:manage',
    access: { table: 'write' },
  },
  {
    id: 'updateServiceAccountKey',
    method: 'PATCH',
    path: '/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}/keys/{key_id}',
    handler: 'functions/iam/update-service-account-key.ts',
    auth: USER_OR_MACHINE,
    permission: 'service-accounts:manage',
    access: { table: 'write' },
  },
  {
    id: 'deleteServiceAccountKey',
    method: 'DELETE',
    path: '/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}/keys/{key_id}',
    handler: 'functions/iam/delete-service-account-key.ts',
    auth: USER_OR_MACHINE,
    permission: 'service-accounts:manage',
    access: { table: 'write' },
  },
  {
    id: 'listGrants',
    method: 'GET',
    path: '/v3/orgs/{org_id}/iam/grants',
    handler: 'functions/iam/list-grants.ts',
    auth: USER_OR_MACHINE,
    permission: 'grants:view',
    access: { table: 'read' },
  },
  {
    id: 'createGrant',
    method: 'POST',
    path: '/v3/orgs/{org_id}/iam/grants',
    handler: 'functions/iam/create-grant.ts',
    auth: USER_OR_MACHINE,
    permission: 'grants:manage',
    access: { table: 'write' },
  },
  {
    id: 'getGrant',
    method: 'GET',
    path: '/v3/orgs/{org_id}/iam/grants/{grant_id}',
    handler: 'functions/iam/get-grant.ts',
    auth: USER_OR_MACHINE,
    permission: 'grants:view',
    access: { table: 'read' },
  },
  {
    id: 'updateGrant',
    method: 'PATCH',
    path: '/v3/orgs/{org_id}/iam/grants/{grant_id}',
    handler: 'functions/iam/update-grant.ts',
    auth: USER_OR_MACHINE,
    permission: 'grants:manage',
    access: { table: 'write' },
  },
  {
    id: 'deleteGrant',
    method: 'DELETE',
    path: '/v3/orgs/{org_id}/iam/grants/{grant_id}',
    handler: 'functions/iam/delete-grant.ts',
    auth: USER_OR_MACHINE,
    permission: 'grants:manage',
    access: { table: 'write' },
  },
  {
    id: 'listRoles',
    method: 'GET',
    path: '/v3/orgs/{org_id}/iam/roles',
    handler: 'functions/iam/list-roles.ts',
    auth: USER_OR_MACHINE,
    permission: 'roles:view',
    access: { table: 'read' },
  },
  {
    id: 'createRole',
    method: 'POST',
    path: '/v3/orgs/{org_id}/iam/roles',
    handler: 'functions/iam/create-role.ts',
    auth: USER_OR_MACHINE,
    permission: 'roles:manage',
    access: { table: 'write' },
  },
  {
    id: 'getRole',
    method: 'GET',
    path: '/v3/orgs/{org_id}/iam/roles/{role_id}',
    handler: 'functions/iam/get-role.ts',
    auth: USER_OR_MACHINE,
    permission: 'roles:view',
    access: { table: 'read' },
  },
  {
    id: 'updateRole',
    method: 'PATCH',
    path: '/v3/orgs/{org_id}/iam/roles/{role_id}',
    handler: 'functions/iam/update-role.ts',
    auth: USER_OR_MACHINE,
    permission: 'roles:manage',
    access: { table: 'write' },
  },
  {
    id: 'deleteRole',
    method: 'DELETE',
    path: '/v3/orgs/{org_id}/iam/roles/{role_id}',
    handler: 'functions/iam/delete-role.ts',
    auth: USER_OR_MACHINE,
    permission: 'roles:manage',
    access: { table: 'write' },
  },
  {
    id: 'listRoleGroups',
    method: 'GET',
    path: '/v3/orgs/{org_id}/iam/role-groups',
    handler: 'functions/iam/list-role-groups.ts',
    auth: USER_OR_MACHINE,
    permission: 'roles:view',
    access: { table: 'read' },
  },
  {
    id: 'createRoleGroup',
    method: 'POST',
    path: '/v3/orgs/{org_id}/iam/role-groups',
    handler: 'functions/iam/create-role-group.ts',
    auth: USER_OR_MACHINE,
    permission: 'roles:manage',
    access: { table: 'write' },
  },
  {
    id: 'getRoleGroup',
    method: 'GET',
    path: '/v3/orgs/{org_id}/iam/role-groups/{role_group_id}',
    handler: 'functions/iam/get-role-group.ts',
    auth: USER_OR_MACHINE,
    permission: 'roles:view',
    access: { table: 'read' },
  },
  {
    id: 'updateRoleGroup',
    method: 'PATCH',
    path: '/v3/orgs/{org_id}/iam/role-groups/{role_group_id}',
    handler: 'functions/iam/update-role-group.ts',
    auth: USER_OR_MACHINE,
    permission: 'roles:manage',
    access: { table: 'write' },
  },
  {
    id: 'deleteRoleGroup',
    method: 'DELETE',
    path: '/v3/orgs/{org_id}/iam/role-groups/{role_group_id}',
    handler: 'functions/iam/delete-role-group.ts',
    auth: USER_OR_MACHINE,
    permission: 'roles:manage',
    access: { table: 'write' },
  },
  {
    id: 'createSsoProvider',
    method: 'POST',
    path: '/v3/sso-providers',
    handler: 'functions/iam/create-sso-provider.ts',
    auth: USER_OR_MACHINE,
    permission: 'sso-providers:manage',
    access: { table: 'write' },
  },
  {
    id: 'listSsoProviders',
    method: 'GET',
    path: '/v3/sso-providers',
    handler: 'functions/iam/list-sso-providers.ts',
    auth: USER_OR_MACHINE,
    permission: 'sso-providers:manage',
    access: { table: 'read' },
  },
  {
    id: 'listEquipmentManufacturers',
    method: 'GET',
    path: '/v3/orgs/{org_id}/assets/equipment-manufacturers',
    handler: 'functions/assets/equipment-manufacturers/list.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'createEquipmentManufacturer',
    method: 'POST',
    path: '/v3/orgs/{org_id}/assets/equipment-manufacturers',
    handler: 'functions/assets/equipment-manufacturers/create.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'getEquipmentManufacturer',
    method: 'GET',
    path: '/v3/orgs/{org_id}/assets/equipment-manufacturers/{equipment_manufacturer_id}',
    handler: 'functions/assets/equipment-manufacturers/get.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'updateEquipmentManufacturer',
    method: 'PATCH',
    path: '/v3/orgs/{org_id}/assets/equipment-manufacturers/{equipment_manufacturer_id}',
    handler: 'functions/assets/equipment-manufacturers/update.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'deleteEquipmentManufacturer',
    method: 'DELETE',
    path: '/v3/orgs/{org_id}/assets/equipment-manufacturers/{equipment_manufacturer_id}',
    handler: 'functions/assets/equipment-manufacturers/delete.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'listEquipmentCategories',
    method: 'GET',
    path: '/v3/orgs/{org_id}/assets/equipment-categories',
    handler: 'functions/assets/equipment-categories/list.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'createEquipmentCategory',
    method: 'POST',
    path: '/v3/orgs/{org_id}/assets/equipment-categories',
    handler: 'functions/assets/equipment-categories/create.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'getEquipmentCategory',
    method: 'GET',
    path: '/v3/orgs/{org_id}/assets/equipment-categories/{equipment_category_id}',
    handler: 'functions/assets/equipment-categories/get.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'updateEquipmentCategory',
    method: 'PATCH',
    path: '/v3/orgs/{org_id}/assets/equipment-categories/{equipment_category_id}',
    handler: 'functions/assets/equipment-categories/update.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'deleteEquipmentCategory',
    method: 'DELETE',
    path: '/v3/orgs/{org_id}/assets/equipment-categories/{equipment_category_id}',
    handler: 'functions/assets/equipment-categories/delete.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'listEquipmentModels',
    method: 'GET',
    path: '/v3/orgs/{org_id}/assets/equipment-models',
    handler: 'functions/assets/equipment-models/list.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'createEquipmentModel',
    method: 'POST',
    path: '/v3/orgs/{org_id}/assets/equipment-models',
    handler: 'functions/assets/equipment-models/create.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'getEquipmentModel',
    method: 'GET',
    path: '/v3/orgs/{org_id}/assets/equipment-models/{equipment_model_id}',
    handler: 'functions/assets/equipment-models/get.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'updateEquipmentModel',
    method: 'PATCH',
    path: '/v3/orgs/{org_id}/assets/equipment-models/{equipment_model_id}',
    handler: 'functions/assets/equipment-models/update.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'deleteEquipmentModel',
    method: 'DELETE',
    path: '/v3/orgs/{org_id}/assets/equipment-models/{equipment_model_id}',
    handler: 'functions/assets/equipment-models/delete.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'listVehicleSpecifications',
    method: 'GET',
    path: '/v3/orgs/{org_id}/assets/vehicle-specifications',
    handler: 'functions/assets/vehicle-specifications/list.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'createVehicleSpecification',
    method: 'POST',
    path: '/v3/orgs/{org_id}/assets/vehicle-specifications',
    handler: 'functions/assets/vehicle-specifications/create.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'getVehicleSpecification',
    method: 'GET',
    path: '/v3/orgs/{org_id}/assets/vehicle-specifications/{vehicle_specification_id}',
    handler: 'functions/assets/vehicle-specifications/get.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'updateVehicleSpecification',
    method: 'PATCH',
    path: '/v3/orgs/{org_id}/assets/vehicle-specifications/{vehicle_specification_id}',
    handler: 'functions/assets/vehicle-specifications/update.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'deleteVehicleSpecification',
    method: 'DELETE',
    path: '/v3/orgs/{org_id}/assets/vehicle-specifications/{vehicle_specification_id}',
    handler: 'functions/assets/vehicle-specifications/delete.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'listEquipment',
    method: 'GET',
    path: '/v3/orgs/{org_id}/assets/equipment',
    handler: 'functions/assets/equipment/list.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'createEquipment',
    method: 'POST',
    path: '/v3/orgs/{org_id}/assets/equipment',
    handler: 'functions/assets/equipment/create.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'getEquipment',
    method: 'GET',
    path: '/v3/orgs/{org_id}/assets/equipment/{equipment_id}',
    handler: 'functions/assets/equipment/get.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'updateEquipment',
    method: 'PATCH',
    path: '/v3/orgs/{org_id}/assets/equipment/{equipment_id}',
    handler: 'functions/assets/equipment/update.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'deleteEquipment',
    method: 'DELETE',
    path: '/v3/orgs/{org_id}/assets/equipment/{equipment_id}',
    handler: 'functions/assets/equipment/delete.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'listVehicles',
    method: 'GET',
    path: '/v3/orgs/{org_id}/assets/vehicles',
    handler: 'functions/assets/vehicles/list.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'createVehicle',
    method: 'POST',
    path: '/v3/orgs/{org_id}/assets/vehicles',
    handler: 'functions/assets/vehicles/create.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'getVehicle',
    method: 'GET',
    path: '/v3/vehicles/{vehicle_id}',
    handler: 'functions/assets/vehicles/get.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'updateVehicle',
    method: 'PATCH',
    path: '/v3/vehicles/{vehicle_id}',
    handler: 'functions/assets/vehicles/update.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'deleteVehicle',
    method: 'DELETE',
    path: '/v3/vehicles/{vehicle_id}',
    handler: 'functions/assets/vehicles/delete.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'allocateVehicleToLocation',
    method: 'PATCH',
    path: '/v3/vehicles/{vehicle_id}/relationships/allocated_location',
    handler: 'functions/assets/vehicles/allocate-location.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'allocateVehicleToPerson',
    method: 'PATCH',
    path: '/v3/vehicles/{vehicle_id}/relationships/allocated_person',
    handler: 'functions/assets/vehicles/allocate-person.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'allocateVehicleToScheme',
    method: 'PATCH',
    path: '/v3/vehicles/{vehicle_id}/relationships/allocated_scheme',
    handler: 'functions/assets/vehicles/allocate-scheme.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'allocateVehicleToWorkOrder',
    method: 'PATCH',
    path: '/v3/vehicles/{vehicle_id}/relationships/allocated_work_order',
    handler: 'functions/assets/vehicles/allocate-work-order.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'listVehicleAuditEvents',
    method: 'GET',
    path: '/v3/vehicles/{vehicle_id}/audit-events',
    handler: 'functions/audit/list-vehicle-audit-events.ts',
    auth: USER_OR_MACHINE,
    permission: 'audit-events:view',
    access: { table: 'read' },
  },
  {
    id: 'listAuditEvents',
    method: 'GET',
    path: '/v3/orgs/{org_id}/audit-events',
    handler: 'functions/audit/list-audit-events.ts',
    auth: USER_OR_MACHINE,
    permission: 'audit-events:view',
    access: { table: 'read' },
  },
  {
    id: 'listLocations',
    method: 'GET',
    path: '/v3/orgs/{org_id}/governance/locations',
    handler: 'functions/places/locations/list.ts',
    auth: USER_OR_MACHINE,
    permission: 'places:view',
    access: { table: 'read' },
  },
  {
    id: 'createLocation',
    method: 'POST',
    path: '/v3/orgs/{org_id}/governance/locations',
    handler: 'functions/places/locations/create.ts',
    auth: USER_OR_MACHINE,
    permission: 'places:manage',
    access: { table: 'write' },
  },
  {
    id: 'getLocation',
    method: 'GET',
    path: '/v3/orgs/{org_id}/governance/locations/{location_id}',
    handler: 'functions/places/locations/get.ts',
    auth: USER_OR_MACHINE,
    permission: 'places:view',
    access: { table: 'read' },
  },
  {
    id: 'updateLocation',
    method: 'PATCH',
    path: '/v3/orgs/{org_id}/governance/locations/{location_id}',
    handler: 'functions/places/locations/update.ts',
    auth: USER_OR_MACHINE,
    permission: 'places:manage',
    access: { table: 'write' },
  },
  {
    id: 'deleteLocation',
    method: 'DELETE',
    path: '/v3/orgs/{org_id}/governance/locations/{location_id}',
    handler: 'functions/places/locations/delete.ts',
    auth: USER_OR_MACHINE,
    permission: 'places:manage',
    access: { table: 'write' },
  },
  {
    id: 'listVehicleInventoryChecks',
    method: 'GET',
    path: '/v3/orgs/{org_id}/assets/vehicle-inventory-checks',
    handler: 'functions/assets/inventory-checks/list.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'createVehicleInventoryCheck',
    method: 'POST',
    path: '/v3/orgs/{org_id}/assets/vehicle-inventory-checks',
    handler: 'functions/assets/inventory-checks/create.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
  {
    id: 'getVehicleInventoryCheck',
    method: 'GET',
    path: '/v3/vehicle-inventory-checks/{vehicle_inventory_check_id}',
    handler: 'functions/assets/inventory-checks/get.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:view',
    access: { table: 'read' },
  },
  {
    id: 'updateVehicleInventoryCheck',
    method: 'PATCH',
    path: '/v3/vehicle-inventory-checks/{vehicle_inventory_check_id}',
    handler: 'functions/assets/inventory-checks/update.ts',
    auth: USER_OR_MACHINE,
    permission: 'assets:manage',
    access: { table: 'write' },
  },
] as const satisfies readonly Route[];

export type RouteId = (typeof routes)[number]['id'];

/**
 * The catch-all: API Gateway's `$default` route and the local adapter send every request that matches
 * no entry above here, so unknown paths (404) and wrong methods (405) answer as JSON:API documents.
 */
export const fallbackRoute = {
  id: 'fallback',
  method: 'GET',
  path: '$default',
  handler: 'functions/fallback/not-found.ts',
  auth: [],
  permission: null,
  access: {},
} as const satisfies Route;

export const routeById = (id: RouteId): Route => {
  const found = routes.find((r) => r.id === id);
  if (!found) throw new Error(`no route ${id}`);
  return found;
};

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

const compiled = routes.map((route) => ({
  route: route as Route,
  pattern: new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
}));

/** Finds the route for a method and path; `allowed` lists the methods the path has when none match. */
export const matchRoute = (
  method: string,
  path: string,
): { match: RouteMatch | null; allowed: HttpMethod[] } => {
  const allowed: HttpMethod[] = [];
  for (const { route, pattern } of compiled) {
    const m = pattern.exec(path);
    if (!m) continue;
    if (route.method === method) {
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(m.groups ?? {})) params[k] = decodeURIComponent(v);
      return { match: { route, params }, allowed: [] };
    }
    allowed.push(route.method);
  }
  return { match: null, allowed };
};
