/**
 * Builders that write records through the data layer, for the demo data set and for tests that build
 * their own data. Ids are UUIDv7 taken from the creation time, as the service's own writes will be.
 */
import { hashSecret, newClientSecret } from '../../shared/auth/secret-hash';
import { uuidv7 } from '../../shared/data/ids';
import { type Grant, putClient, putPrincipal } from '../../shared/data/principals';
import { createResource } from '../../shared/data/repository';
import { scopeOf } from '../../shared/data/scope';
import type { StoredResource } from '../../shared/data/stored-resource';
import { featureConfigurations } from '../../shared/resources/feature-configurations';
import { organisations } from '../../shared/resources/organisations';
import type { ResourceDefinition } from '../../shared/resources/resource-definition';
import { toStoredResource } from '../../shared/resources/stored';
import { createTeam as createTeamRecord } from '../../shared/resources/team-writes';
import { users } from '../../shared/resources/users';

const create = async (
  definition: ResourceDefinition,
  orgId: string | null,
  attributes: Record<string, unknown>,
  rels: StoredResource['rels'] = {},
  at: Date = new Date(),
  meta: Record<string, unknown> = {},
): Promise<StoredResource> => {
  const id = uuidv7(at.getTime());
  const timestamp = at.toISOString();
  const record = toStoredResource(definition, {
    orgId: orgId ?? id,
    id,
    attributes,
    meta: { created_at: timestamp, updated_at: timestamp, ...meta },
    rels,
  });
  await createResource(scopeOf([record.org_id]), record);
  return record;
};

export const createOrganisation = (
  attributes: { name: string; slug: string; description: string },
  at?: Date,
): Promise<StoredResource> => create(organisations, null, attributes, {}, at, { status: 'active' });

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
  );

/** Teams go through the service's own create path, so members' `teams` links are kept as the API keeps them. */
export const createTeam = (
  orgId: string,
  t: { name: string; description: string; memberIds?: string[] },
  at?: Date,
) =>
  createTeamRecord(
    scopeOf([orgId]),
    orgId,
    {
      data: {
        type: 'teams',
        attributes: { name: t.name, description: t.description },
        relationships: {
          members: { data: (t.memberIds ?? []).map((id) => ({ type: 'users' as const, id })) },
        },
      },
    },
    at,
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

/** A service account principal with one enabled key; the secret is returned once and stored hashed. */
export const createServiceAccountClient = async (
  name: string,
  grants: Grant[],
): Promise<ClientCredentials> => {
  const principalId = uuidv7();
  const clientId = uuidv7();
  const clientSecret = newClientSecret();
  await putClient({
    client_id: clientId,
    principal_id: principalId,
    secret_hash: await hashSecret(clientSecret),
    created_at: new Date().toISOString(),
  });
  await putPrincipal({
    kind: 'service-account',
    id: principalId,
    name,
    enabled: true,
    grants,
    keys: { [clientId]: { enabled: true } },
  });
  return { principalId, clientId, clientSecret };
};
