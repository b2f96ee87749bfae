/**
 * Builders that write records through the data layer, for the demo data set and for tests that build
 * their own data. Ids are UUIDv7 taken from the creation time, as the service's own writes will be.
 */

import { featureConfigurations } from '#functions/feature-configurations/definitions';
import { createGrant, grantRecord, grantWrites } from '#functions/iam/grant-writes';
import { createKey, createServiceAccount } from '#functions/iam/service-accounts';
import { createSsoProvider as createSsoProviderRecord } from '#functions/iam/sso-providers';
import { defaultSettings } from '#functions/organisations/default-settings';
import { organisations } from '#functions/organisations/definitions';
import { createTeam as createTeamRecord } from '#functions/people/team-writes';
import { users } from '#functions/people/users';
import { uuidv7 } from '#shared/data/ids';
import { userPrincipal } from '#shared/data/principals';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, type WriteOp } from '#shared/data/transaction';
import type { ResourceDefinition } from '#shared/engine/resource-definition';
import { toStoredResource } from '#shared/engine/stored';

const create = async (
  definition: ResourceDefinition,
  orgId: string | null,
  attributes: Record<string, unknown>,
  rels: StoredResource['rels'] = {},
  at: Date = new Date(),
  meta: Record<string, unknown> = {},
  alongside: (record: StoredResource) => WriteOp[] = () => [],
  id = uuidv7(at.getTime()),
): Promise<StoredResource> => {
  const timestamp = at.toISOString();
  const record = toStoredResource(definition, {
    orgId: orgId ?? id,
    id,
    attributes,
    meta: { created_at: timestamp, updated_at: timestamp, ...meta },
    rels,
  });
  await commit(scopeOf([record.org_id]), [{ create: record }, ...alongside(record)]);
  return record;
};

/** `id` is for organisations whose id configuration names in advance (street-works routing in tests). */
export const createOrganisation = (
  attributes: { name: string; slug: string; description: string },
  at?: Date,
  id?: string,
): Promise<StoredResource> =>
  create(
    organisations,
    null,
    attributes,
    {},
    at,
    { status: 'active' },
    (org) => [{ create: defaultSettings(org.id, at) }],
    id,
  );

export interface UserProfile {
  email: string;
  first_name: string;
  last_name: string;
  occupation?: string;
  mobile?: string;
  town?: string;
}

export const createUser = (orgId: string, p: UserProfile, at?: Date) =>
  create(
    users,
    orgId,
    {
      email: p.email,
      status: 'active',
      identities: [],
      profile: {
        work: { occupation: p.occupation ?? null, cscs: null, eusr: null, start_date: null },
        personal: {
          first_name: p.first_name,
          last_name: p.last_name,
          username: p.email.split('@')[0],
          dob: null,
        },
        contact: { mobile: p.mobile ?? null, landline: null },
        address: {
          number: null,
          street: null,
          area: null,
          town: p.town ?? null,
          county: null,
          postcode: null,
          country_code: 'GB',
          three_word_address: null,
        },
        settings: { preferred_language: 'en-GB', timezone: 'Europe/London' },
      },
    },
    { organisations: [orgId], teams: [] },
    at,
    {},
    // The user's principal: what a session authenticates as; team memberships are added to it.
    (user) => [{ put: userPrincipal(user.id, `${p.first_name} ${p.last_name}`) }],
  );

/** Teams go through the service's own create path, so members' `teams` links are kept as the API keeps them. */
export const createTeam = (
  orgId: string,
  t: { name: string; description: string; memberIds?: string[] },
  at?: Date,
) =>
  createTeamRecord(
    { scope: scopeOf([orgId]), orgId, principal: null, now: at },
    {
      data: {
        type: 'teams',
        attributes: { name: t.name, description: t.description },
        relationships: {
          members: { data: (t.memberIds ?? []).map((id) => ({ type: 'users' as const, id })) },
        },
      },
    },
  );

export const createFeatureConfiguration = (
  orgId: string,
  f: { name: string; domain: string; component: string; enabled: boolean },
  at?: Date,
) =>
  create(
    featureConfigurations,
    orgId,
    { domain: f.domain, component: f.component, enabled: f.enabled },
    {},
    at,
    {
      name: f.name,
    },
  );

export interface ClientCredentials {
  principalId: string;
  clientId: string;
  clientSecret: string;
}

/**
 * A service account in the first grant's organisation, with one key and the given role grants, written
 * through the same functions the IAM endpoints use. The secret is returned once. Grants in any other
 * organisation are written as records directly: they stand for the bridges both organisations will
 * accept (not built yet), which the grants endpoint refuses to fake (a grant names only its own
 * organisation's principals). Tests of callers spanning organisations need them.
 */
export const createServiceAccountClient = async (
  name: string,
  roleGrants: { org_id: string; role: string }[],
): Promise<ClientCredentials> => {
  const home = roleGrants[0]?.org_id ?? uuidv7();
  const scope = scopeOf([home]);
  const account = await createServiceAccount(scope, home, {
    data: { type: 'service-accounts', attributes: { name, description: '', enabled: true } },
  });
  const { key, clientSecret } = await createKey(scope, account);
  for (const g of roleGrants) {
    if (g.org_id !== home) {
      const bridged = grantRecord(g.org_id, { role: g.role, service_account: account.id });
      await commit(scopeOf([g.org_id]), grantWrites(bridged));
      continue;
    }
    await createGrant(scopeOf([g.org_id]), g.org_id, {
      data: {
        type: 'grants',
        relationships: {
          role: { data: { type: 'roles', id: g.role } },
          service_account: { data: { type: 'service-accounts', id: account.id } },
        },
      },
    });
  }
  return { principalId: account.id, clientId: key.id, clientSecret };
};

/** Gives a built-in or custom role to a user, team or service account, as POST …/iam/grants does. */
export const grantRole = (
  orgId: string,
  role: string,
  grantee: 'user' | 'team' | 'service_account',
  id: string,
) =>
  createGrant(scopeOf([orgId]), orgId, {
    data: {
      type: 'grants',
      relationships: {
        role: { data: { type: 'roles', id: role } },
        [grantee]: { data: { type: grantee === 'service_account' ? 'service-accounts' : `${grantee}s`, id } },
      },
    },
  });

/** An SSO provider of the organisation, as POST /v3/sso-providers makes one (the demo's local provider). */
export const createSsoProvider = (
  orgId: string,
  p: { name: string; metadata: string; clientId: string; allowedDomains: string[] },
) =>
  createSsoProviderRecord(scopeOf([orgId]), {
    data: {
      type: 'sso-providers',
      attributes: {
        name: p.name,
        metadata: p.metadata,
        enforce: false,
        client_id: p.clientId,
        allowed_domains: p.allowedDomains,
        return_to_allow_list: [],
      },
      relationships: { organisation: { data: { type: 'organisations', id: orgId } } },
    },
  });
