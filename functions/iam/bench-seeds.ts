/**
 * The routes bench's IAM (test/bench/seed-routes.ts loads this file by its name; no module of the service
 * imports it): the integration's service account (first, before it signs in), keys (at most 10 per account,
 * three disabled), roles and groups, then (once people's teams exist) grants and SSO providers.
 */
import { type BenchSeeds, idsOf, many, one, pick, type Step, slug, town } from '../../test/bench/seed-steps';

const INTEGRATIONS = [
  'asset register sync',
  'GIS feed',
  'payroll export',
  'telematics',
  'ERP bridge',
] as const;
const serviceAccounts: Step = {
  route: 'createServiceAccount',
  data: (i) => ({
    attributes: {
      name: i === 0 ? 'SCADA telemetry bridge' : `${town(i)} ${pick(INTEGRATIONS, i)}`,
      description: `Integration for the ${town(i)} area.`,
      enabled: i % 7 !== 6,
    },
  }),
};

export const benchSeeds: BenchSeeds = {
  first: [serviceAccounts],
  writes: [
    {
      at: 30,
      steps: (c) => {
        const ids = idsOf(c);
        return [
          {
            route: 'createServiceAccountKey',
            count: 9,
            serial: true,
            params: () => ({ service_account_id: c.bot }),
          },
          {
            route: 'updateServiceAccountKey',
            count: 3,
            type: 'service-account-keys',
            into: 'disabled-keys',
            params: (i) => ({ service_account_id: c.bot, key_id: ids('createServiceAccountKey', i * 3 + 1) }),
            data: (i) => ({ id: ids('createServiceAccountKey', i * 3 + 1), attributes: { enabled: false } }),
          },
          {
            route: 'createRole',
            data: (i) => ({
              attributes: {
                name: `${pick(['Site', 'Fleet', 'Records', 'Costs', 'CDM', 'Customer', 'Documents'], i)} ${pick(['viewer', 'editor', 'approver', 'auditor', 'coordinator'], i)}`,
                description: `Custom role for ${town(i)} staff.`,
                permissions: (c.ids.permissions ?? [])
                  .filter((_, k) => k % 11 === i % 11)
                  .slice(0, 2 + (i % 4)),
              },
            }),
          },
          {
            route: 'createRoleGroup',
            data: (i) => ({
              attributes: {
                name: `${pick(['Framework', 'Depot', 'Regional', 'Project', 'Night-shift', 'Emergency', 'Apprentice'], i)} ${pick(['contractors', 'supervisors', 'office staff', 'engineers', 'operatives'], i)}`,
              },
              relationships: { roles: many('roles', [ids('roles', i), ids('roles', i + 7), 'viewer']) },
            }),
          },
        ];
      },
    },
    {
      at: 50,
      steps: (c) => {
        const ids = idsOf(c);
        const user = (i: number) => ids('users', i);
        return [
          {
            // To teams, service accounts and people, of a custom role or a role group.
            route: 'createGrant',
            data: (i) => ({
              relationships: {
                ...(i % 2 === 0
                  ? { role: one('roles', ids('roles', i)) }
                  : { role_group: one('role-groups', ids('role-groups', i)) }),
                ...(i % 3 === 0
                  ? { team: one('teams', ids('teams', i)) }
                  : i % 3 === 1
                    ? { service_account: one('service-accounts', ids('service-accounts', i)) }
                    : { user: one('users', user(1 + (i % 5))) }),
              },
            }),
          },
          {
            route: 'createSsoProvider',
            data: (i) => ({
              attributes: {
                name: `${pick(['Entra ID', 'Okta', 'Google Workspace', 'Ping Identity', 'OneLogin'], i)} (${town(i)})`,
                metadata: `https://login.${slug(town(i))}.northmere-water.example/.well-known/openid-configuration`,
                enforce: i % 5 === 0,
              },
              relationships: {
                organisation: one('organisations', c.org),
                ...(i % 2 === 0 && { default_role: one('roles', ids('roles', i)) }),
              },
            }),
          },
        ];
      },
    },
  ],
};
